package dev.atrium.platform.messaging.server;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDrivenContext;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

import dev.atrium.platform.messaging.ConsumerTrace;
import dev.atrium.platform.messaging.Deliveries;
import dev.atrium.platform.messaging.MessagingRuntime;
import dev.atrium.platform.messaging.ServerMessaging;

/**
 * What every message-driven bean here does with a delivery, in the container's transaction (the resource adapter's XA
 * session): hands the body to the queue's handler outside that transaction, and rolls it back when the handler throws,
 * so the broker's address settings decide what follows (3 deliveries 5 s apart, then the dead-letter queue), as with
 * the application's own consumers. A batch queue's packed message delivered again is put back as a message per body
 * in the same transaction instead.
 */
abstract class Listener implements MessageListener {

    private static final Logger LOG = Logger.getLogger(Listener.class.getName());

    @EJB
    MessagingRuntime runtime;

    @Inject
    OutsideTheDelivery outside;

    @Resource
    MessageDrivenContext context;

    @Resource(lookup = ServerMessaging.CONNECTION_FACTORY)
    ConnectionFactory factory;

    /** The queue or topic of this bean, as its activation configuration names it. */
    abstract String destination();

    /** Handles one body; throwing rolls the delivery back. */
    abstract void handle(String body, int deliveryCount) throws Exception;

    @Override
    public void onMessage(Message message) {
        int deliveryCount = 0;
        try (var trace = ConsumerTrace.start(runtime.tracing(), destination(), List.of(message))) {
            try {
                deliveryCount = message.getIntProperty("JMSXDeliveryCount");
                handle(message.getBody(String.class), deliveryCount);
            } catch (Exception e) {
                trace.failed(e);
                throw e;
            }
        } catch (Exception e) {
            int count = deliveryCount;
            LOG.log(Level.WARNING, e, () -> "Handler of " + destination() + " failed on delivery " + count
                    + "; rolled back for redelivery");
            context.setRollbackOnly();
        }
    }

    /** Puts bodies back on this bean's queue as a message each, in the delivery's transaction. */
    void resendEach(List<String> bodies) throws JMSException {
        try (var connection = factory.createConnection();
             var session = connection.createSession();
             var producer = session.createProducer(ServerMessaging.destination(session, false, destination()))) {
            for (String body : bodies) {
                producer.send(session.createTextMessage(body));
            }
        }
    }

    /** The base of the beans of queues: their {@link dev.atrium.platform.messaging.MessageHandler}. */
    abstract static class OfQueue extends Listener {

        @Override
        void handle(String body, int deliveryCount) throws Exception {
            var handler = runtime.handler(destination()).orElseThrow(
                    () -> new IllegalStateException("No handler for queue " + destination()));
            if (Deliveries.unpacks(handler, body, deliveryCount)) {
                resendEach(Deliveries.lines(body));
            } else {
                outside.deliver(handler, body, deliveryCount);
            }
        }
    }

    /** The base of the beans of topics: their {@link dev.atrium.platform.messaging.TopicHandler}. */
    abstract static class OfTopic extends Listener {

        @Override
        void handle(String body, int deliveryCount) throws Exception {
            var handler = runtime.topicHandler(destination()).orElseThrow(
                    () -> new IllegalStateException("No subscriber to topic " + destination()));
            outside.deliver(handler, body, deliveryCount);
        }
    }
}
