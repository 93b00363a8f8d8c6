package dev.atrium.platform.messaging;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;

import dev.atrium.platform.telemetry.TraceParents;
import dev.atrium.platform.telemetry.Tracing;

/**
 * One consumer on its own thread: a transacted session, a synchronous receive loop, commit when the handler
 * returns and roll back when it throws, so that the broker's redelivery settings decide what happens next.
 */
final class ConsumerLoop implements Runnable {

    /** What a queue or topic handler does with one message. */
    @FunctionalInterface
    interface Delivery {
        void accept(String body, int deliveryCount) throws Exception;
    }

    /** What a handler does with several first deliveries at once. */
    @FunctionalInterface
    interface Batch {
        void accept(List<String> bodies) throws Exception;
    }

    private static final Logger LOG = Logger.getLogger(ConsumerLoop.class.getName());
    /**
     * How long a receive waits for a message. Each wait that ends empty asks the broker once more (Artemis's forced
     * delivery, a round trip and a task on the broker's threads), so an idle server's dozen consumers at a short wait
     * would keep the broker busy; {@link #stop()} ends a wait at once by closing the consumer.
     */
    private static final long RECEIVE_MILLIS = 30_000;
    private static final long RETRY_MILLIS = 1000;

    private final Connection connection;
    private final String name;
    private final boolean topic;
    private final Delivery delivery;
    private final Batch batch;
    private final int batchSize;
    private final Tracer tracer;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile boolean receiving;
    private Session session;
    private volatile MessageConsumer consumer;

    ConsumerLoop(Connection connection, String name, boolean topic, Delivery delivery) {
        this(connection, name, topic, delivery, null, 1, OpenTelemetry.noop().getTracer(Tracing.SCOPE));
    }

    /**
     * With {@code batchSize} above 1, first deliveries waiting in the queue are handed to {@code batch} together.
     * {@code tracer} records the deliveries of traced messages ({@link ConsumerTrace}).
     */
    ConsumerLoop(Connection connection, String name, boolean topic, Delivery delivery, Batch batch, int batchSize,
                 Tracer tracer) {
        this.tracer = tracer;
        this.connection = connection;
        this.name = name;
        this.topic = topic;
        this.delivery = delivery;
        this.batch = batch;
        this.batchSize = batch == null ? 1 : Math.max(1, batchSize);
    }

    /**
     * Creates the session and consumer on the caller's thread, so that a broker refusing them fails the start,
     * and a topic subscription exists before the caller publishes anything.
     */
    void open() throws JMSException {
        session = connection.createSession(Session.SESSION_TRANSACTED);
        try {
            consumer = session.createConsumer(topic ? session.createTopic(name) : session.createQueue(name));
        } catch (JMSException | RuntimeException e) {
            closeSession();
            throw e;
        }
    }

    @Override
    public void run() {
        try {
            while (running) {
                try {
                    if (session == null) {
                        open();
                    }
                    Message message;
                    receiving = true;
                    try {
                        // stop() either sees this wait begin, and closes the consumer, or is seen here
                        if (!running) {
                            break;
                        }
                        message = consumer.receive(RECEIVE_MILLIS);
                    } finally {
                        receiving = false;
                    }
                    if (message != null) {
                        if (batchSize > 1 && message.getIntProperty("JMSXDeliveryCount") <= 1) {
                            handleBatch(message);
                        } else if (batchSize > 1 && Deliveries.packed(message.getBody(String.class))) {
                            unpack(message);
                        } else {
                            handle(message);
                        }
                    }
                } catch (JMSException | RuntimeException e) {
                    if (!running) {
                        break;
                    }
                    // the broker or the connection failed, not the handler: start over with a new session
                    LOG.log(Level.WARNING, e, () -> "Consumer of " + name + " lost its session; retrying");
                    closeSession();
                    pause();
                }
            }
        } finally {
            closeSession();
            finished.countDown();
        }
    }

    private void handle(Message message) throws JMSException {
        int deliveryCount = message.getIntProperty("JMSXDeliveryCount");
        try (var trace = ConsumerTrace.open(tracer, name, List.of(message))) {
            try {
                delivery.accept(message.getBody(String.class), deliveryCount);
            } catch (Throwable e) {
                // whatever the handler did wrong, the loop must keep serving the queue
                trace.failed(e);
                LOG.log(Level.WARNING, e, () -> "Handler of " + name + " failed on delivery " + deliveryCount
                        + "; rolled back for redelivery");
                session.rollback();
                return;
            }
            session.commit();
        }
    }

    /**
     * The first message and whatever else waits, up to the batch size, handed over together and committed together.
     * A message may carry several bodies, one a line (the outbox relay packs a batch queue's events so); they count
     * one each. A message delivered again that turns up meanwhile ends the batch and is handled alone in the same
     * transaction (or unpacked); any failure rolls all of them back, and they come again one by one.
     */
    private void handleBatch(Message first) throws JMSException {
        var bodies = new ArrayList<>(Deliveries.lines(first.getBody(String.class)));
        var messages = new ArrayList<Message>(List.of(first));
        Message again = null;
        while (bodies.size() < batchSize) {
            Message next = consumer.receiveNoWait();
            if (next == null) {
                break;
            }
            if (next.getIntProperty("JMSXDeliveryCount") > 1) {
                again = next;
                break;
            }
            bodies.addAll(Deliveries.lines(next.getBody(String.class)));
            messages.add(next);
        }
        Message alone = again;
        if (alone != null) {
            messages.add(alone);
        }
        try (var trace = ConsumerTrace.open(tracer, name, messages)) {
            handleBatch(bodies, alone, trace);
        }
    }

    private void handleBatch(List<String> bodies, Message alone, ConsumerTrace trace) throws JMSException {
        try {
            batch.accept(bodies);
            if (alone != null) {
                if (Deliveries.packed(alone.getBody(String.class))) {
                    resendEach(Deliveries.lines(alone.getBody(String.class)), ConsumerTrace.traceParent(alone));
                } else {
                    delivery.accept(alone.getBody(String.class), alone.getIntProperty("JMSXDeliveryCount"));
                }
            }
        } catch (Throwable e) {
            trace.failed(e);
            LOG.log(Level.WARNING, e, () -> "Handler of " + name + " failed on a batch of " + bodies.size()
                    + "; rolled back for redelivery one by one");
            session.rollback();
            return;
        }
        session.commit();
    }

    /**
     * A packed message delivered again (its batch failed): its bodies go back to the queue as messages of their own,
     * in this transaction, so that the one that fails reaches the dead-letter queue alone and the others are billed.
     */
    private void unpack(Message message) throws JMSException {
        try {
            resendEach(Deliveries.lines(message.getBody(String.class)), ConsumerTrace.traceParent(message));
        } catch (JMSException | RuntimeException e) {
            LOG.log(Level.WARNING, e, () -> "Unpacking a message of " + name + " failed; rolled back");
            session.rollback();
            return;
        }
        session.commit();
    }

    /** Each body a message of its own, carrying the packed message's trace ({@code traceParent} null: none). */
    private void resendEach(List<String> bodies, String traceParent) throws JMSException {
        try (var producer = session.createProducer(session.createQueue(name))) {
            for (String body : bodies) {
                var message = session.createTextMessage(body);
                if (TraceParents.spanContext(traceParent).isValid()) {
                    message.setStringProperty(TraceParents.PROPERTY, traceParent);
                }
                producer.send(message);
            }
        }
    }

    private void pause() {
        try {
            Thread.sleep(RETRY_MILLIS);
        } catch (InterruptedException e) {
            running = false;
            Thread.currentThread().interrupt();
        }
    }

    private void closeSession() {
        if (session != null) {
            try {
                session.close();
            } catch (JMSException | RuntimeException e) {
                LOG.log(Level.FINE, "Closing a consumer session failed", e);
            }
            session = null;
            consumer = null;
        }
    }

    /**
     * Asks the loop to stop after the message in hand; a loop waiting for a message stops at once (JMS lets another
     * thread close a consumer, and the waiting receive then answers null).
     */
    void stop() {
        running = false;
        MessageConsumer waiting = consumer;
        if (receiving && waiting != null) {
            try {
                waiting.close();
            } catch (JMSException | RuntimeException e) {
                LOG.log(Level.FINE, "Closing a waiting consumer failed", e);
            }
        }
    }

    boolean awaitFinished(long millis) throws InterruptedException {
        return finished.await(millis, TimeUnit.MILLISECONDS);
    }
}
