package dev.atrium.platform.messaging;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDrivenContext;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

import dev.atrium.platform.telemetry.TraceParents;

/**
 * What every message-driven bean does with a delivery, in the container's transaction (the resource adapter's XA
 * session): hands the body to the queue's handler outside that transaction, and rolls it back when the handler throws,
 * so the broker's address settings decide what follows (3 deliveries 5 s apart, then the dead-letter queue). A batch
 * queue's packed message delivered again is put back as a message per body instead, keeping its trace.
 */
public abstract class Listener implements MessageListener {

    private static final Logger LOG = Logger.getLogger(Listener.class.getName());

    @EJB
    MessagingRuntime runtime;

    @Inject
    OutsideTheDelivery outside;

    @Resource
    MessageDrivenContext context;

    // the server's pooled factory, whose XA session puts bodies back in the delivery's transaction; none on Micro
    ConnectionFactory factory;

    @PostConstruct
    void findFactory() {
        if (factory == null) {
            factory = ServerMessaging.connectionFactory().orElse(null);
        }
    }

    /** The queue or topic of this bean, as its activation configuration names it. */
    protected abstract String destination();

    /** Handles one body; throwing rolls the delivery back. */
    abstract void handle(String body, int deliveryCount, String traceParent) throws Exception;

    @Override
    public void onMessage(Message message) {
        int deliveryCount = 0;
        try (var trace = ConsumerTrace.start(runtime.tracing(), destination(), List.of(message))) {
            try {
                deliveryCount = message.getIntProperty("JMSXDeliveryCount");
                handle(message.getBody(String.class), deliveryCount, ConsumerTrace.traceParent(message));
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

    /**
     * Puts bodies back on this bean's queue as a message each, carrying the packed message's trace: in the delivery's
     * transaction through the server's factory; on Payara Micro in a transaction of the application's client, committed
     * just before the delivery's (a crash between the two delivers the packed message again, and its bodies twice: the
     * handlers are idempotent by the event's id).
     */
    void resendEach(List<String> bodies, String traceParent) throws JMSException {
        String carried = TraceParents.spanContext(traceParent).isValid() ? traceParent : null;
        if (factory == null) {
            runtime.broker().sendAll(bodies.stream()
                    .map(body -> new Messaging.Outgoing(destination(), false, body, null, carried)).toList());
            return;
        }
        try (var connection = factory.createConnection();
             var session = connection.createSession();
             var producer = session.createProducer(ServerMessaging.destination(session, false, destination()))) {
            for (String body : bodies) {
                producer.send(Messaging.message(session, body, null, carried));
            }
        }
    }

    /** The base of the beans of queues: their {@link MessageHandler}. */
    public abstract static class OfQueue extends Listener {

        @Override
        void handle(String body, int deliveryCount, String traceParent) throws Exception {
            var handler = runtime.handler(destination()).orElseThrow(
                    () -> new IllegalStateException("No handler for queue " + destination()));
            if (Deliveries.unpacks(handler, body, deliveryCount)) {
                resendEach(Deliveries.lines(body), traceParent);
            } else {
                outside.deliver(handler, body, deliveryCount);
            }
        }
    }

    /** The base of the beans of topics: their {@link TopicHandler}. */
    public abstract static class OfTopic extends Listener {

        @Override
        void handle(String body, int deliveryCount, String traceParent) throws Exception {
            var handler = runtime.topicHandler(destination()).orElseThrow(
                    () -> new IllegalStateException("No subscriber to topic " + destination()));
            outside.deliver(handler, body, deliveryCount);
        }
    }
}
