package dev.atrium.platform.messaging;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

import javax.naming.InitialContext;
import javax.naming.NamingException;

import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.Session;

/**
 * Messaging through the resources Payara Server manages: the connection factory {@value #CONNECTION_FACTORY} of
 * Artemis's resource adapter (its pool is the server's, sized and watched from the admin console) and the queues and
 * topics bound under {@value #DESTINATIONS} (the EAR's {@code glassfish-resources.xml}, from
 * {@code server-config/payara}). Consumers are the message-driven beans of this package, as on Payara Micro.
 * <p>
 * A batch goes out in a JTA transaction of its own, the resource adapter's XA session its only resource, so the
 * outbox's database transaction around the call is not touched and a refused batch rolls back whole. Single sends
 * run without a transaction: a message the broker took before (same duplicate id) is then dropped alone, where a
 * transaction holding it would be refused.
 */
@Stateless
@LocalBean // its own type is the view MessagingRuntime injects; the interface alone would hide it
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ServerMessaging implements Messaging {

    public static final String CONNECTION_FACTORY = "java:app/jms/atrium";
    public static final String DESTINATIONS = "java:app/jms/";

    private static final Logger LOG = Logger.getLogger(ServerMessaging.class.getName());
    private static final int MAX_DESTINATIONS = 1000;
    private static final Map<String, Destination> BOUND = new ConcurrentHashMap<>();

    /** The server's connection factory, when the deployment has one (the EAR on Payara Server). */
    static Optional<ConnectionFactory> connectionFactory() {
        try {
            return Optional.of(InitialContext.doLookup(CONNECTION_FACTORY));
        } catch (NamingException e) {
            return Optional.empty();
        }
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void sendAll(List<Outgoing> messages) {
        if (messages.isEmpty()) {
            return;
        }
        try (var connection = factory().createConnection();
             var session = connection.createSession()) {
            var producer = session.createProducer(null);
            for (var outgoing : messages) {
                producer.send(destination(session, outgoing.topic(), outgoing.destination()),
                        Messaging.message(session, outgoing.body(), outgoing.duplicateId(), outgoing.traceParent()));
            }
        } catch (JMSException | RuntimeException e) {
            throw new MessagingException("Cannot send " + messages.size() + " messages", e);
        }
    }

    @Override
    public void send(String queue, String body, String duplicateId) {
        sendOne(queue, false, body, duplicateId, null);
    }

    @Override
    public void publish(String topic, String body, String duplicateId) {
        sendOne(topic, true, body, duplicateId, null);
    }

    @Override
    public void sendAlone(Outgoing message) {
        sendOne(message.destination(), message.topic(), message.body(), message.duplicateId(), message.traceParent());
    }

    private void sendOne(String name, boolean topic, String body, String duplicateId, String traceParent) {
        try (var connection = factory().createConnection();
             var session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
             var producer = session.createProducer(null)) {
            producer.send(destination(session, topic, name),
                    Messaging.message(session, body, duplicateId, traceParent));
        } catch (JMSException | RuntimeException e) {
            throw new MessagingException("Cannot send to " + name, e);
        }
    }

    /** Whether the resource adapter can open a session on the broker now (a pooled connection, no message sent). */
    @Override
    public boolean connected() {
        try (var connection = factory().createConnection();
             var session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            return session != null;
        } catch (JMSException | RuntimeException e) {
            LOG.log(Level.FINE, "The resource adapter cannot reach the broker", e);
            return false;
        }
    }

    @Override
    public long depth(String queue, int cap) {
        try (var connection = factory().createConnection();
             var session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
             var browser = session.createBrowser((Queue) destination(session, false, queue))) {
            connection.start();
            return Messaging.count(browser, cap);
        } catch (JMSException | RuntimeException e) {
            throw new MessagingException("Cannot browse " + queue, e);
        }
    }

    private static ConnectionFactory factory() {
        return connectionFactory().orElseThrow(() -> new IllegalStateException(
                "No JMS connection factory at " + CONNECTION_FACTORY));
    }

    /**
     * The queue or topic the server binds under {@value #DESTINATIONS} ({@code queue/tasks}, {@code topic/...}), or,
     * for a name the server does not bind (the dead-letter queue when browsed), the broker's destination of that name.
     */
    public static Destination destination(Session session, boolean topic, String name) throws JMSException {
        String key = (topic ? "topic/" : "queue/") + name;
        Destination known = BOUND.get(key);
        if (known != null) {
            return known;
        }
        try {
            known = InitialContext.doLookup(DESTINATIONS + key);
        } catch (NamingException e) {
            known = topic ? session.createTopic(name) : session.createQueue(name);
        }
        if (BOUND.size() < MAX_DESTINATIONS) {
            BOUND.putIfAbsent(key, known);
        }
        return known;
    }
}
