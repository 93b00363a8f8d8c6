package dev.atrium.platform.messaging;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.ejb.MessageDrivenContext;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Session;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * The message-driven beans without a server, as Artemis's resource adapter and the container run them: a
 * {@link Listener} per session, each fetching one message at a time ({@code ConsumerWindowSize} 0 in {@code ra.xml}),
 * each delivery committed, or rolled back when the bean marks it so. What the beans put back goes out through
 * {@code broker}, as on Payara Micro.
 */
public final class MessageDrivenBeans implements AutoCloseable {

    private final Messaging broker;
    private final Optional<String> url;
    private final List<Connection> connections = new CopyOnWriteArrayList<>();

    /** Beans on the broker at {@code url} (empty: the embedded one, in-VM), putting back through {@code broker}. */
    public MessageDrivenBeans(Messaging broker, Optional<String> url) {
        this.broker = broker;
        this.url = url;
    }

    /** The bean of a queue with one session, as {@code maxSession} 1 gives it. */
    public void consume(MessageHandler handler) throws JMSException {
        consume(handler, 1);
    }

    /** The bean of a queue with {@code sessions} sessions, as its {@code maxSession} gives them. */
    public void consume(MessageHandler handler, int sessions) throws JMSException {
        for (int i = 0; i < sessions; i++) {
            activate(new Listener.OfQueue() {
                @Override
                protected String destination() {
                    return handler.queue();
                }
            }, false, handler, null);
        }
    }

    /** The bean of a topic: one session, a non-durable subscription. */
    public void subscribe(TopicHandler handler) throws JMSException {
        activate(new Listener.OfTopic() {
            @Override
            protected String destination() {
                return handler.topic();
            }
        }, true, null, handler);
    }

    private void activate(Listener bean, boolean topic, MessageHandler queueHandler, TopicHandler topicHandler)
            throws JMSException {
        boolean[] rollbackOnly = new boolean[1];
        bean.runtime = new MessagingRuntime() {
            @Override
            public Optional<MessageHandler> handler(String queue) {
                return Optional.ofNullable(queueHandler);
            }

            @Override
            public Optional<TopicHandler> topicHandler(String name) {
                return Optional.ofNullable(topicHandler);
            }

            @Override
            public Messaging broker() {
                return broker;
            }
        };
        bean.outside = new OutsideTheDelivery();
        bean.context = ListenerTest.proxy(MessageDrivenContext.class, (method, args) -> {
            if (method.equals("setRollbackOnly")) {
                rollbackOnly[0] = true;
            }
            return null;
        });
        var connection = factory().createConnection();
        connections.add(connection);
        var session = connection.createSession(Session.SESSION_TRANSACTED);
        var consumer = session.createConsumer(topic ? session.createTopic(bean.destination())
                : session.createQueue(bean.destination()));
        consumer.setMessageListener(message -> {
            rollbackOnly[0] = false;
            bean.onMessage(message);
            try {
                if (rollbackOnly[0]) {
                    session.rollback();
                } else {
                    session.commit();
                }
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });
        connection.start();
    }

    private ActiveMQConnectionFactory factory() {
        var factory = new ActiveMQConnectionFactory(url.orElse("vm://0"));
        factory.setConsumerWindowSize(0);
        factory.setReconnectAttempts(-1);
        return factory;
    }

    @Override
    public void close() throws JMSException {
        for (var connection : connections) {
            connection.close();
        }
    }
}
