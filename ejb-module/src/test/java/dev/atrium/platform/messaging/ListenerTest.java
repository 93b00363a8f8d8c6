package dev.atrium.platform.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import jakarta.ejb.MessageDrivenContext;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.junit.jupiter.api.Test;

import dev.atrium.billing.control.BillingListener;

/**
 * What a message-driven bean does with a delivery, without a server: the container's transaction is a flag
 * ({@link MessageDrivenContext#setRollbackOnly}), the adapter's connection factory records what is sent.
 */
class ListenerTest {

    /** A handler of the billing queue (batches of 500) that fails on bodies starting with "fail". */
    static final class Handler implements MessageHandler {
        final List<String> calls = new ArrayList<>();
        boolean threw;

        @Override
        public String queue() {
            return "billing";
        }

        @Override
        public int batchSize() {
            return 500;
        }

        @Override
        public void onMessage(String body, int deliveryCount) {
            calls.add("one " + body + " #" + deliveryCount);
            if (body != null && body.startsWith("fail")) {
                threw = true;
                throw new IllegalStateException("refused " + body);
            }
        }

        @Override
        public void onMessages(List<String> bodies) {
            calls.add("batch " + bodies);
            if (bodies.stream().anyMatch(b -> b != null && b.startsWith("fail"))) {
                threw = true;
                throw new IllegalStateException("refused a batch");
            }
        }
    }

    private final Handler handler = new Handler();
    private final List<String> resent = new ArrayList<>();
    private boolean rolledBack;

    private Listener listener(Optional<MessageHandler> found) {
        Listener listener = new BillingListener();
        listener.runtime = new MessagingRuntime() {
            @Override
            public Optional<MessageHandler> handler(String queue) {
                return queue.equals("billing") ? found : Optional.empty();
            }
        };
        listener.outside = new OutsideTheDelivery();
        listener.context = proxy(MessageDrivenContext.class, (method, args) -> {
            if (method.equals("setRollbackOnly")) {
                rolledBack = true;
            }
            return null;
        });
        listener.factory = proxy(ConnectionFactory.class, (method, args) -> proxy(Connection.class,
                (m, a) -> m.equals("createSession") ? session() : null));
        return listener;
    }

    private Listener listener() {
        return listener(Optional.of(handler));
    }

    private Session session() {
        return proxy(Session.class, (method, args) -> switch (method) {
            case "createQueue" -> proxy(Queue.class, (m, a) -> m.equals("getQueueName") ? args[0] : null);
            case "createTextMessage" -> proxy(TextMessage.class, (m, a) -> m.equals("getText") ? args[0] : null);
            case "createProducer" -> proxy(MessageProducer.class, (m, a) -> {
                if (m.equals("send")) {
                    resent.add(((TextMessage) a[0]).getText());
                }
                return null;
            });
            default -> null;
        });
    }

    private static Message message(String body, int deliveryCount) {
        return proxy(Message.class, (method, args) -> switch (method) {
            case "getIntProperty" -> deliveryCount;
            case "getBody" -> body;
            default -> null;
        });
    }

    @Test
    void whenABatchMessageComesFirstThenItsBodiesReachTheHandlerTogetherAndTheDeliveryCommits() {
        listener().onMessage(message("a\nb\nc", 1));

        assertThat(handler.calls).containsExactly("batch [a, b, c]");
        assertThat(rolledBack).isFalse();
        assertThat(resent).isEmpty();
    }

    @Test
    void whenTheHandlerThrowsThenTheDeliveryIsRolledBackForTheBrokerToDeliverAgain() {
        listener().onMessage(message("a\nfail-b", 1));

        assertThat(rolledBack).isTrue();
        assertThat(resent).isEmpty();
    }

    @Test
    void whenAPackedMessageComesAgainThenEachBodyIsPutBackAloneInsteadOfHandled() {
        listener().onMessage(message("a\nfail-b\n\nc", 2));

        assertThat(handler.calls).isEmpty();
        assertThat(resent).containsExactly("a", "fail-b", "c");
        assertThat(rolledBack).isFalse();
    }

    @Test
    void whenABodyComesAgainAloneThenTheHandlerGetsItWithItsDeliveryCount() {
        listener().onMessage(message("fail-b", 3));

        assertThat(handler.calls).containsExactly("one fail-b #3");
        assertThat(rolledBack).isTrue();
    }

    @Test
    void whenNoHandlerConsumesTheQueueThenTheDeliveryIsRolledBack() {
        listener(Optional.empty()).onMessage(message("a", 1));

        assertThat(rolledBack).isTrue();
    }

    @Test
    void whenTheMessageIsNotTextThenTheDeliveryIsRolledBackWithoutReachingTheHandler() {
        var bytes = proxy(Message.class, (method, args) -> {
            if (method.equals("getBody")) {
                throw new MessageFormatException("not text");
            }
            return method.equals("getIntProperty") ? 1 : null;
        });

        listener().onMessage(bytes);

        assertThat(rolledBack).isTrue();
        assertThat(handler.calls).isEmpty();
    }

    @Test
    void whenHostileBodiesArriveThenTheBeanNeverThrowsAndRollsBackExactlyWhenTheHandlerRefuses() {
        // a warning with its stack trace per refused delivery is right on a server, not 2,000 times here
        var log = java.util.logging.Logger.getLogger(Listener.class.getName());
        var level = log.getLevel();
        log.setLevel(java.util.logging.Level.OFF);
        try {
            hostileRounds();
        } finally {
            log.setLevel(level);
        }
    }

    private void hostileRounds() {
        long seed = Long.getLong("atrium.fuzz.seed", 20261126L);
        var random = new Random(seed);
        String[] pieces = {"", "\n", "\r\n", " ", "fail", "a", "é", "\u0000", "{\"id\":1}", "\t", "\uD83D\uDE00"};
        for (int round = 0; round < 2_000; round++) {
            String body;
            if (random.nextInt(20) == 0) {
                body = null;
            } else {
                var text = new StringBuilder();
                for (int i = random.nextInt(12); i > 0; i--) {
                    text.append(pieces[random.nextInt(pieces.length)]);
                }
                body = text.toString();
            }
            int count = 1 + random.nextInt(4);
            handler.calls.clear();
            handler.threw = false;
            resent.clear();
            rolledBack = false;
            String b = body;

            assertThatCode(() -> listener().onMessage(message(b, count))).as("seed %d round %d", seed, round)
                    .doesNotThrowAnyException();

            boolean packed = body != null && body.indexOf('\n') >= 0;
            if (packed && count > 1) {
                assertThat(handler.calls).isEmpty();
                assertThat(rolledBack).isFalse();
                assertThat(resent).noneMatch(String::isBlank);
            } else {
                assertThat(handler.calls).hasSize(1);
                assertThat(rolledBack).as("seed %d round %d: %s", seed, round, body).isEqualTo(handler.threw);
            }
        }
    }

    @FunctionalInterface
    interface Answer {
        Object answer(String method, Object[] args) throws Exception;
    }

    @SuppressWarnings("unchecked")
    static <T> T proxy(Class<T> type, Answer answer) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (self, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "hashCode" -> System.identityHashCode(self);
                    case "equals" -> self == args[0];
                    default -> type.getSimpleName();
                };
            }
            Object result = answer.answer(method.getName(), args);
            if (result == null && method.getReturnType() == boolean.class) {
                return false;
            }
            if (result == null && method.getReturnType() == int.class) {
                return 0;
            }
            return result;
        });
    }
}
