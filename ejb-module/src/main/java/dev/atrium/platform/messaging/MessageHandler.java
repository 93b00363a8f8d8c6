package dev.atrium.platform.messaging;

import java.util.List;

/**
 * A consumer of one queue. Implementations are CDI beans; the queue's message-driven bean finds its handler through
 * the messaging runtime and hands it each delivery. A handler that throws gets the message again (3 deliveries, 5 s apart, then the
 * dead-letter queue), so handlers must be idempotent: messages carry ids, handlers load current state.
 */
public interface MessageHandler {

    /** The queue name, for example {@code mail}. */
    String queue();

    /**
     * Handles one message body. {@code deliveryCount} is 1 on the first delivery.
     * Throwing any exception asks for redelivery.
     */
    void onMessage(String body, int deliveryCount) throws Exception;

    /**
     * How many bodies one delivery may hand over at once to {@link #onMessages}; 1 (the default) delivers them one
     * by one. A batch is committed or rolled back as a whole; messages delivered again are handed over one by one,
     * so a message that keeps failing cannot take others with it to the dead-letter queue. Above 1, the outbox relay
     * packs this queue's events up to this many to a message, one body a line; such a message delivered again is
     * first put back as a message per body.
     */
    default int batchSize() {
        return 1;
    }

    /** Handles several first deliveries in one go (see {@link #batchSize()}); throwing redelivers them all. */
    default void onMessages(List<String> bodies) throws Exception {
        for (String body : bodies) {
            onMessage(body, 1);
        }
    }
}
