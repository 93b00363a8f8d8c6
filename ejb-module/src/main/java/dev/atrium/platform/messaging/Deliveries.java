package dev.atrium.platform.messaging;

import java.util.Collections;
import java.util.List;

/**
 * What a delivered message means for its handler ({@link Listener}). A batch queue's message may carry several bodies,
 * one a line (the outbox relay packs them so): on its first delivery they go to {@link MessageHandler#onMessages} together; delivered
 * again (their batch failed), they are put back as a message each, so that one body that keeps failing reaches the
 * dead-letter queue alone.
 */
final class Deliveries {

    private Deliveries() {
    }

    /** Whether this delivery is a packed message to put back as a message per body instead of being handled. */
    static boolean unpacks(MessageHandler handler, String body, int deliveryCount) {
        return handler.batchSize() > 1 && deliveryCount > 1 && packed(body);
    }

    /** Hands the message to its handler (a batch queue's first delivery as a batch); throwing asks for redelivery. */
    static void deliver(MessageHandler handler, String body, int deliveryCount) throws Exception {
        if (handler.batchSize() > 1 && deliveryCount <= 1) {
            handler.onMessages(lines(body));
        } else {
            handler.onMessage(body, deliveryCount);
        }
    }

    static boolean packed(String body) {
        return body != null && body.indexOf('\n') >= 0;
    }

    /**
     * The bodies a message carries: its lines that are not blank, or the whole body (null too) when it has one line;
     * the handler refuses what it cannot read, and that body alone ends in the dead-letter queue.
     */
    static List<String> lines(String body) {
        if (!packed(body)) {
            return Collections.singletonList(body);
        }
        return body.lines().filter(line -> !line.isBlank()).toList();
    }
}
