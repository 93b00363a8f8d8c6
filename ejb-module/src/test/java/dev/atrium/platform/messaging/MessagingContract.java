package dev.atrium.platform.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.jms.JMSException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every broker the application can use must do, with the settings the application relies on
 * (3 deliveries 5 s apart, then {@code DLQ}), sent through the application's client and consumed as the
 * message-driven beans consume ({@link MessageDrivenBeans}).
 */
abstract class MessagingContract {

    /** Plain threads for the tests' own senders. */
    static final ThreadFactory THREADS = runnable -> {
        var thread = new Thread(runnable);
        thread.setDaemon(true);
        return thread;
    };

    private static final long WAIT_SECONDS = 30;

    @TempDir
    Path directory;

    BrokerConnection broker;

    private MessageDrivenBeans beans;

    /** Starts whatever broker the variant needs and connects to it. */
    abstract BrokerConnection connect(Path directory) throws Exception;

    /** The broker's URL for the beans' factory; empty: the embedded broker, in-VM. */
    abstract Optional<String> url();

    /** Stops what {@link #connect} started, after the connection is closed. */
    void stopBroker() throws Exception {
    }

    @BeforeEach
    void connect() throws Exception {
        broker = connect(directory);
    }

    @AfterEach
    void close() throws Exception {
        if (beans != null) {
            beans.close();
        }
        broker.close();
        stopBroker();
    }

    /** The bean of a queue, with {@code handler.sessions} sessions. */
    void consume(Recorder handler) throws JMSException {
        beans().consume(handler, handler.sessions);
    }

    /** The bean of a topic. */
    void subscribe(TopicHandler handler) throws JMSException {
        beans().subscribe(handler);
    }

    private MessageDrivenBeans beans() {
        if (beans == null) {
            beans = new MessageDrivenBeans(broker, url());
        }
        return beans;
    }

    record Delivery(String body, int count, long nanos) {
    }

    /** A queue handler that records each delivery, then does what the test says. */
    static class Recorder implements MessageHandler {

        interface Behaviour {
            void handle(String body, int deliveryCount) throws Exception;
        }

        final BlockingQueue<Delivery> deliveries = new LinkedBlockingQueue<>();
        /** The sessions of its bean, as the bean's {@code maxSession} would give them. */
        final int sessions;
        private final String queue;
        private final Behaviour behaviour;

        Recorder(String queue, int sessions, Behaviour behaviour) {
            this.queue = queue;
            this.sessions = sessions;
            this.behaviour = behaviour;
        }

        Recorder(String queue) {
            this(queue, 1, (body, count) -> {
            });
        }

        @Override
        public String queue() {
            return queue;
        }

        @Override
        public void onMessage(String body, int deliveryCount) throws Exception {
            deliveries.add(new Delivery(body, deliveryCount, System.nanoTime()));
            behaviour.handle(body, deliveryCount);
        }

        Delivery next() throws InterruptedException {
            var delivery = deliveries.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(delivery).as("a delivery on " + queue + " within " + WAIT_SECONDS + " s").isNotNull();
            return delivery;
        }
    }

    static class TopicRecorder implements TopicHandler {

        final BlockingQueue<String> bodies = new LinkedBlockingQueue<>();
        private final String topic;

        TopicRecorder(String topic) {
            this.topic = topic;
        }

        @Override
        public String topic() {
            return topic;
        }

        @Override
        public void onMessage(String body, int deliveryCount) {
            bodies.add(body);
        }

        String next() throws InterruptedException {
            var body = bodies.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(body).as("a message on topic " + topic).isNotNull();
            return body;
        }
    }

    @Test
    void whenMessageIsSentThenHandlerReceivesItOnFirstDelivery() throws Exception {
        var handler = new Recorder("orders");
        consume(handler);

        broker.send("orders", "order-17");

        var delivery = handler.next();
        assertThat(delivery.body()).isEqualTo("order-17");
        assertThat(delivery.count()).isEqualTo(1);
    }

    @Test
    void whenMessageIsSentBeforeAnyConsumerThenConsumerGetsItLater() throws Exception {
        broker.send("late", "waiting");

        var handler = new Recorder("late");
        consume(handler);

        assertThat(handler.next().body()).isEqualTo("waiting");
    }

    @Test
    void whenHandlerAlwaysThrowsThenThreeDeliveriesFiveSecondsApartThenDeadLetterQueue() throws Exception {
        var failing = new Recorder("doomed", 1, (body, count) -> {
            throw new IllegalStateException("always fails");
        });
        var deadLetters = new Recorder(BrokerConnection.DEAD_LETTER_QUEUE);
        consume(failing);
        consume(deadLetters);

        broker.send("doomed", "doomed-1");

        var first = failing.next();
        var second = failing.next();
        var third = failing.next();
        assertThat(List.of(first.count(), second.count(), third.count())).containsExactly(1, 2, 3);
        assertThat(millisBetween(first, second)).isGreaterThanOrEqualTo(4500);
        assertThat(millisBetween(second, third)).isGreaterThanOrEqualTo(4500);

        assertThat(deadLetters.next().body()).isEqualTo("doomed-1");
        assertThat(failing.deliveries).isEmpty();
    }

    @Test
    void whenHandlerFailsOnceThenMessageArrivesASecondTime() throws Exception {
        var handler = new Recorder("flaky", 1, (body, count) -> {
            if (count == 1) {
                throw new IllegalStateException("first attempt fails");
            }
        });
        consume(handler);

        broker.send("flaky", "flaky-1");

        var first = handler.next();
        var second = handler.next();
        assertThat(second.body()).isEqualTo("flaky-1");
        assertThat(second.count()).isEqualTo(2);
        assertThat(millisBetween(first, second)).isGreaterThanOrEqualTo(4500);
        assertThat(handler.deliveries.poll(1, TimeUnit.SECONDS)).isNull();
    }

    /** Takes waiting messages in batches; a batch holding {@code poison} fails, as does poison on its own. */
    static class Batcher extends Recorder {

        final BlockingQueue<List<String>> batches = new LinkedBlockingQueue<>();
        final java.util.Set<String> handled = java.util.concurrent.ConcurrentHashMap.newKeySet();

        Batcher(String queue) {
            super(queue, 1, (body, count) -> {
                if (body.equals("poison")) {
                    throw new IllegalStateException("poison");
                }
            });
        }

        @Override
        public int batchSize() {
            return 10;
        }

        @Override
        public void onMessage(String body, int deliveryCount) throws Exception {
            super.onMessage(body, deliveryCount);
            handled.add(body);
        }

        @Override
        public void onMessages(List<String> bodies) {
            batches.add(List.copyOf(bodies));
            if (bodies.contains("poison")) {
                throw new IllegalStateException("a batch with poison");
            }
            handled.addAll(bodies);
        }
    }

    @Test
    void whenAPackedMessageFailsThenItsBodiesComeBackAloneAndOnlyTheFailingOneReachesTheDeadLetterQueue()
            throws Exception {
        // as the outbox relay packs a batch queue's events: one body a line, one message a batch
        broker.send("packed", "p0\np1\np2");
        broker.send("packed", "p3\npoison\np5");
        var handler = new Batcher("packed");
        var deadLetters = new Recorder(BrokerConnection.DEAD_LETTER_QUEUE);
        consume(handler);
        consume(deadLetters);

        // the failed message comes again unpacked, then its bodies one by one: only the poison is given up
        assertThat(deadLetters.next().body()).isEqualTo("poison");
        assertThat(handler.handled).containsExactlyInAnyOrder("p0", "p1", "p2", "p3", "p5");
        var batches = new java.util.ArrayList<List<String>>();
        handler.batches.drainTo(batches);
        // each body put back is a message of its own: a batch of one first, then alone on its later deliveries
        assertThat(batches.subList(0, 2)).containsExactly(List.of("p0", "p1", "p2"), List.of("p3", "poison", "p5"));
        assertThat(batches.subList(2, batches.size())).containsExactlyInAnyOrder(List.of("p3"), List.of("poison"),
                List.of("p5"));
        assertThat(handler.deliveries).extracting(Delivery::body).doesNotContain("p3\npoison\np5")
                .filteredOn("poison"::equals).hasSize(2);
        assertThat(deadLetters.deliveries.poll(1, TimeUnit.SECONDS)).isNull();
    }

    @Test
    void whenTheRelayPacksFiveHundredBodiesThenTheyReachTheHandlerAsOneBatch() throws Exception {
        var bodies = new java.util.ArrayList<String>();
        for (int i = 0; i < 500; i++) {
            bodies.add("e" + i);
        }
        var handler = new Batcher("full") {
            @Override
            public int batchSize() {
                return 500;
            }
        };
        consume(handler);

        broker.send("full", String.join("\n", bodies));

        var batch = handler.batches.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(batch).isEqualTo(bodies);
        assertThat(handler.batches.poll(500, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void whenConcurrencyIsOneThenOneMessageIsInFlightAtATime() throws Exception {
        var inFlight = new AtomicInteger();
        var mostInFlight = new AtomicInteger();
        var handler = new Recorder("serial", 1, (body, count) -> {
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            Thread.sleep(100);
            inFlight.decrementAndGet();
        });
        consume(handler);

        for (int i = 0; i < 5; i++) {
            broker.send("serial", "serial-" + i);
        }

        for (int i = 0; i < 5; i++) {
            assertThat(handler.next().body()).isEqualTo("serial-" + i);
        }
        assertThat(mostInFlight.get()).isEqualTo(1);
    }

    @Test
    void whenConcurrencyIsTwoThenTwoMessagesAreHandledAtOnce() throws Exception {
        var bothArrived = new CountDownLatch(2);
        var handler = new Recorder("parallel", 2, (body, count) -> {
            bothArrived.countDown();
            // holds its message until the other consumer has one too: one consumer must not take both
            assertThat(bothArrived.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        });
        consume(handler);

        broker.send("parallel", "a");
        broker.send("parallel", "b");

        assertThat(bothArrived.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(List.of(handler.next().count(), handler.next().count())).containsExactly(1, 1);
    }

    @Test
    void whenPublishedToTopicThenEverySubscriberReceivesIt() throws Exception {
        var one = new TopicRecorder("changes");
        var two = new TopicRecorder("changes");
        subscribe(one);
        subscribe(two);

        broker.publish("changes", "post-5");

        assertThat(one.next()).isEqualTo("post-5");
        assertThat(two.next()).isEqualTo("post-5");
    }

    @Test
    void whenAQueueAndATopicShareANameThenEachMessageGoesWhereItWasSentEveryTime() throws Exception {
        var queue = new Recorder("shared");
        var topic = new TopicRecorder("shared");
        consume(queue);
        subscribe(topic);

        // the destinations are looked up once and then reused: the second round must route as the first
        for (int round = 1; round <= 2; round++) {
            broker.send("shared", "queued-" + round);
            broker.publish("shared", "published-" + round);
            broker.sendAll(List.of(new Messaging.Outgoing("shared", false, "batch-queued-" + round, null),
                    new Messaging.Outgoing("shared", true, "batch-published-" + round, null)));
        }

        var queued = new HashSet<String>();
        var published = new HashSet<String>();
        for (int i = 0; i < 4; i++) {
            queued.add(queue.next().body());
            published.add(topic.next());
        }
        assertThat(queued).containsExactlyInAnyOrder("queued-1", "batch-queued-1", "queued-2", "batch-queued-2");
        assertThat(published).containsExactlyInAnyOrder("published-1", "batch-published-1", "published-2",
                "batch-published-2");
        assertThat(queue.deliveries.poll(500, TimeUnit.MILLISECONDS)).isNull();
        assertThat(topic.bodies.poll(500, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void whenSendingFromManyThreadsThenEveryMessageArrivesOnce() throws Exception {
        var handler = new Recorder("busy", 2, (body, count) -> {
        });
        consume(handler);
        int senders = 4;
        int each = 25;
        var done = new CountDownLatch(senders);
        for (int s = 0; s < senders; s++) {
            int sender = s;
            THREADS.newThread(() -> {
                for (int i = 0; i < each; i++) {
                    broker.send("busy", sender + "-" + i);
                }
                done.countDown();
            }).start();
        }

        assertThat(done.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        var bodies = new HashSet<String>();
        for (int i = 0; i < senders * each; i++) {
            bodies.add(handler.next().body());
        }
        assertThat(bodies).hasSize(senders * each);
    }

    @Test
    void whenClosedThenSendingFails() {
        broker.close();

        assertThatThrownBy(() -> broker.send("any", "x"))
                .isInstanceOf(IllegalStateException.class);
    }

    static long millisBetween(Delivery earlier, Delivery later) {
        return Duration.ofNanos(later.nanos() - earlier.nanos()).toMillis();
    }
}
