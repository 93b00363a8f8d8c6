package dev.atrium.platform.messaging;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

/**
 * Calls a handler with the delivery's transaction suspended: each service it calls commits on its own, and the
 * delivery's transaction holds only the message (acknowledged when it commits, delivered again when it rolls back).
 */
@ApplicationScoped
public class OutsideTheDelivery {

    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public void deliver(MessageHandler handler, String body, int deliveryCount) throws Exception {
        Deliveries.deliver(handler, body, deliveryCount);
    }

    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public void deliver(TopicHandler handler, String body, int deliveryCount) throws Exception {
        handler.onMessage(body, deliveryCount);
    }
}
