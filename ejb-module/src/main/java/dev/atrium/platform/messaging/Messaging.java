package dev.atrium.platform.messaging;

import java.util.List;

import dev.atrium.platform.telemetry.TraceParents;

import io.opentelemetry.context.Context;

import jakarta.jms.JMSException;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.apache.activemq.artemis.api.core.Message;

/**
 * How the application reaches its message broker to send, publish and look at queues. Two ways: its own Artemis
 * client ({@link BrokerConnection}, on Payara Micro, or wherever the server manages no JMS resources) and the
 * server's resources through Artemis's resource adapter ({@link ServerMessaging}, in the EAR on Payara Server).
 * {@link MessagingRuntime} picks one at start; consumers are the application's own loops in the first case and
 * message-driven beans in the second.
 */
public interface Messaging {

    /**
     * One message of {@link #sendAll}: to a topic or a queue, with an optional duplicate-detection id and an optional
     * W3C traceparent, sent as the message property {@code traceparent} (docs/decisions/platform.md, "Traces").
     */
    record Outgoing(String destination, boolean topic, String body, String duplicateId, String traceParent) {

        public Outgoing(String destination, boolean topic, String body, String duplicateId) {
            this(destination, topic, body, duplicateId, null);
        }

        /** This message carrying {@code context}'s trace (none when it holds no valid span). */
        public Outgoing traced(Context context) {
            return new Outgoing(destination, topic, body, duplicateId,
                    TraceParents.of(context));
        }
    }

    /**
     * Sends the messages in one broker transaction: all of them or none. The broker syncs its journal once for the
     * whole batch instead of once per durable message, which is what makes relaying many messages fast.
     */
    void sendAll(List<Outgoing> messages);

    /**
     * Sends to a queue with a duplicate-detection id: the broker drops a second message with the same id on the
     * same address, so a sender that cannot know whether its first send arrived may send again.
     */
    void send(String queue, String body, String duplicateId);

    /** Publishes to a topic with a duplicate-detection id, as {@link #send(String, String, String)}. */
    void publish(String topic, String body, String duplicateId);

    /**
     * Sends one message outside a broker transaction, as {@link #send(String, String, String)} or
     * {@link #publish(String, String, String)}: a duplicate is dropped rather than refused.
     */
    void sendAlone(Outgoing message);

    /**
     * Whether the broker can be reached now. A send while it is away would block until it is back (or time out),
     * so callers that can wait ask first.
     */
    boolean connected();

    /**
     * How many messages wait in the queue (not those a consumer holds), counted by browsing up to {@code cap}, so
     * the answer is the same on every broker and a huge backlog costs a bounded read.
     */
    long depth(String queue, int cap);

    /** How many messages a queue browser shows, counting no further than {@code cap}. */
    static long count(QueueBrowser browser, int cap) throws JMSException {
        var messages = browser.getEnumeration();
        long count = 0;
        while (count < cap && messages.hasMoreElements()) {
            messages.nextElement();
            count++;
        }
        return count;
    }

    /** A text message with the duplicate-detection id and the traceparent property, each where given. */
    static TextMessage message(Session session, String body, String duplicateId, String traceParent)
            throws JMSException {
        var message = session.createTextMessage(body);
        if (duplicateId != null) {
            message.setStringProperty(Message.HDR_DUPLICATE_DETECTION_ID.toString(), duplicateId);
        }
        if (traceParent != null) {
            message.setStringProperty(TraceParents.PROPERTY, traceParent);
        }
        return message;
    }
}
