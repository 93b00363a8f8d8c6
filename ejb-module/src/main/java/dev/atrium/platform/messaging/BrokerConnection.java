package dev.atrium.platform.messaging;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.jms.Connection;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.apache.activemq.artemis.jms.client.ActiveMQConnection;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * The application's one connection to an Apache Artemis broker, plain Java so that it runs without a container.
 * It either starts a broker embedded in this JVM ({@link #embedded(Path)}) or connects to one at a URL
 * ({@link #remote(String)}), and sends text messages to queues and topics; the message-driven beans consume them
 * ({@link Listener}).
 * <p>
 * Redelivery belongs to the broker's address settings. The embedded broker is configured here: 3 deliveries
 * 5 s apart, then the dead-letter queue {@value #DEAD_LETTER_QUEUE}. A remote broker applies its own
 * configuration ({@code broker.xml}), which must say the same for the application to behave the same.
 */
public final class BrokerConnection implements Messaging, AutoCloseable {

    public static final String DEAD_LETTER_QUEUE = "DLQ";
    static final String EXPIRY_QUEUE = "ExpiryQueue";
    static final int MAX_DELIVERY_ATTEMPTS = 3;
    static final long REDELIVERY_DELAY_MILLIS = 5000;

    private static final Logger LOG = Logger.getLogger(BrokerConnection.class.getName());
    private static final int MAX_IDLE_PRODUCERS = 16;
    // the application's queues and topics are a handful; a bound keeps a bug naming them by the message from growing it
    private static final int MAX_DESTINATIONS = 1000;
    static final int DUPLICATE_ID_CACHE = 20_000;
    // held, because JUL forgets the level of a logger nobody references
    private static final Logger BROKER_AUDIT = Logger.getLogger("org.apache.activemq.audit");

    private final EmbeddedActiveMQ broker;
    private final ActiveMQConnectionFactory factory;
    private final Connection connection;
    // JMS sessions are single-threaded: each send borrows one, so senders share a connection without locking
    private final BlockingDeque<Producer> idleProducers = new LinkedBlockingDeque<>(MAX_IDLE_PRODUCERS);
    private final Map<String, Destination> destinations = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private record Producer(Session session, MessageProducer producer) {
    }

    private BrokerConnection(EmbeddedActiveMQ broker, ActiveMQConnectionFactory factory) {
        this.broker = broker;
        this.factory = factory;
        try {
            connection = factory.createConnection();
            connection.setExceptionListener(e -> LOG.log(Level.WARNING, "Broker connection failed", e));
            connection.start();
        } catch (JMSException e) {
            factory.close();
            throw new MessagingException("Cannot connect to the message broker", e);
        }
    }

    /**
     * Starts a broker inside this JVM, reachable at {@code vm://0}, with its persistent journal under
     * {@code directory}, so that queued messages survive a restart.
     */
    public static BrokerConnection embedded(Path directory) {
        var broker = new EmbeddedActiveMQ();
        try {
            broker.setConfiguration(brokerConfiguration(directory).addAcceptorConfiguration("in-vm", "vm://0"));
            broker.start();
        } catch (Exception e) {
            throw new MessagingException("Cannot start the embedded broker in " + directory, e);
        }
        try {
            return new BrokerConnection(broker, new ActiveMQConnectionFactory("vm://0"));
        } catch (RuntimeException e) {
            stopQuietly(broker);
            throw e;
        }
    }

    /**
     * Connects to a broker at an Artemis URL such as {@code tcp://host:61616} (parameters such as
     * {@code ?user=...&password=...} allowed). The broker's own address settings govern redelivery and
     * dead letters.
     */
    public static BrokerConnection remote(String url) {
        ActiveMQConnectionFactory factory;
        try {
            factory = new ActiveMQConnectionFactory(url);
        } catch (RuntimeException e) {
            throw new MessagingException("Invalid broker URL " + withoutParameters(url), e);
        }
        if (!url.contains("reconnectAttempts")) {
            // survive a broker restart: the client reconnects and the senders carry on
            factory.setReconnectAttempts(-1);
        }
        return new BrokerConnection(null, factory);
    }

    /**
     * The configuration of the embedded broker, without acceptors. Public so that tests can give a
     * broker reached over TCP the same settings.
     */
    public static Configuration brokerConfiguration(Path directory) {
        if (BROKER_AUDIT.getLevel() == null) {
            // the broker's audit log writes a line per message at INFO; quiet unless the operator asks for it
            BROKER_AUDIT.setLevel(Level.WARNING);
        }
        var settings = new AddressSettings()
                .setMaxDeliveryAttempts(MAX_DELIVERY_ATTEMPTS)
                .setRedeliveryDelay(REDELIVERY_DELAY_MILLIS)
                .setDeadLetterAddress(SimpleString.of(DEAD_LETTER_QUEUE))
                // nothing expires, but the broker warns about every queue without a place for expired messages
                .setExpiryAddress(SimpleString.of(EXPIRY_QUEUE))
                .setAutoCreateAddresses(true)
                .setAutoCreateQueues(true);
        return new ConfigurationImpl()
                .setName("atrium")
                .setPersistenceEnabled(true)
                // NIO works everywhere; AIO needs libaio and falls back with a warning where it is missing
                .setJournalType(JournalType.NIO)
                .setJournalDirectory(directory.resolve("journal").toString())
                .setBindingsDirectory(directory.resolve("bindings").toString())
                .setPagingDirectory(directory.resolve("paging").toString())
                .setLargeMessagesDirectory(directory.resolve("large-messages").toString())
                .setSecurityEnabled(false)
                // nothing outside the application manages this broker, and two in one JVM would clash
                .setJMXManagementEnabled(false)
                // an idle broker's own wake-ups (docs/benchmarks.md, "Memory and idle cost"): no configuration file to
                // reload, transaction timeouts (300 s) and dead in-VM connections looked for every 10 s instead of
                // every 1 and 2 s, the disk's free space every 15 s instead of 5
                .setConfigurationFileRefreshPeriod(0)
                .setTransactionTimeoutScanPeriod(10_000)
                .setConnectionTtlCheckInterval(10_000)
                .setDiskScanPeriod(15_000)
                .addAddressSetting("#", settings)
                .addQueueConfiguration(QueueConfiguration.of(DEAD_LETTER_QUEUE).setRoutingType(RoutingType.ANYCAST))
                .addQueueConfiguration(QueueConfiguration.of(EXPIRY_QUEUE).setRoutingType(RoutingType.ANYCAST));
    }

    public boolean isEmbedded() {
        return broker != null;
    }

    /** Sends a persistent text message to a queue, now. Thread-safe. */
    public void send(String queue, String body) {
        sendTo(queue, false, body, null, null);
    }

    /**
     * {@inheritDoc} The broker remembers the last {@value #DUPLICATE_ID_CACHE} ids per address by default.
     */
    @Override
    public void send(String queue, String body, String duplicateId) {
        sendTo(queue, false, body, duplicateId, null);
    }

    /** Publishes a text message to a topic, now: every subscriber connected at this moment receives it. */
    public void publish(String topic, String body) {
        sendTo(topic, true, body, null, null);
    }

    @Override
    public void publish(String topic, String body, String duplicateId) {
        sendTo(topic, true, body, duplicateId, null);
    }

    @Override
    public void sendAlone(Outgoing message) {
        sendTo(message.destination(), message.topic(), message.body(), message.duplicateId(), message.traceParent());
    }

    @Override
    public void sendAll(List<Outgoing> messages) {
        if (closed) {
            throw new IllegalStateException("The broker connection is closed");
        }
        if (messages.isEmpty()) {
            return;
        }
        Session session = null;
        try {
            session = connection.createSession(Session.SESSION_TRANSACTED);
            var producer = session.createProducer(null);
            for (var outgoing : messages) {
                producer.send(destination(session, outgoing.topic(), outgoing.destination()),
                        Messaging.message(session, outgoing.body(), outgoing.duplicateId(), outgoing.traceParent()));
            }
            session.commit();
        } catch (JMSException | RuntimeException e) {
            throw new MessagingException("Cannot send " + messages.size() + " messages", e);
        } finally {
            if (session != null) {
                try {
                    session.close();
                } catch (JMSException | RuntimeException e) {
                    LOG.log(Level.FINE, "Closing a transacted session failed", e);
                }
            }
        }
    }

    /** {@inheritDoc} While a remote broker is away the client reconnects in the background. */
    @Override
    public boolean connected() {
        return !closed && ((ActiveMQConnection) connection).getSessionFactory().getConnection() != null;
    }

    @Override
    public long depth(String queue, int cap) {
        try (Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
             var browser = session.createBrowser(session.createQueue(queue))) {
            return Messaging.count(browser, cap);
        } catch (JMSException | RuntimeException e) {
            throw new MessagingException("Cannot browse " + queue, e);
        }
    }

    private void sendTo(String name, boolean topic, String body, String duplicateId, String traceParent) {
        if (closed) {
            throw new IllegalStateException("The broker connection is closed");
        }
        Producer producer = idleProducers.pollFirst();
        try {
            if (producer == null) {
                var session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                producer = new Producer(session, session.createProducer(null));
            }
            var session = producer.session();
            producer.producer().send(destination(session, topic, name),
                    Messaging.message(session, body, duplicateId, traceParent));
        } catch (JMSException | RuntimeException e) {
            close(producer);
            throw new MessagingException("Cannot send to " + name, e);
        }
        if (closed || !idleProducers.offerFirst(producer)) {
            close(producer);
        }
    }

    /**
     * The queue or topic, looked up once per connection: the client asks the broker about a destination object it has
     * not sent to (a blocking round trip), so a new one per message cost two round trips each and capped the relay.
     */
    private Destination destination(Session session, boolean topic, String name) throws JMSException {
        String key = (topic ? "topic:" : "queue:") + name;
        Destination known = destinations.get(key);
        if (known == null) {
            known = topic ? session.createTopic(name) : session.createQueue(name);
            if (destinations.size() < MAX_DESTINATIONS) {
                destinations.putIfAbsent(key, known);
            }
        }
        return known;
    }

    /** Closes the connection, then stops the broker. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        var sessions = ((ActiveMQConnection) connection).getSessionFactory();
        if (sessions.getConnection() == null) {
            // the broker is away and the client is reconnecting: a polite close would wait for it, call by call
            LOG.warning("Closing the broker connection while the broker is unreachable");
            sessions.cleanup();
        }
        for (Producer producer; (producer = idleProducers.pollFirst()) != null; ) {
            close(producer);
        }
        try {
            connection.close();
        } catch (JMSException e) {
            LOG.log(Level.WARNING, "Closing the broker connection failed", e);
        }
        factory.close();
        if (broker != null) {
            stopQuietly(broker);
        }
        // the client's global thread pools would otherwise outlive an undeployed application (the resource adapter on
        // Payara Server has pools of its own: artemis-rar's ra.xml)
        ActiveMQClient.clearThreadPools();
    }

    private static void close(Producer producer) {
        if (producer != null) {
            try {
                producer.session().close();
            } catch (JMSException | RuntimeException e) {
                LOG.log(Level.FINE, "Closing a producer session failed", e);
            }
        }
    }

    private static void stopQuietly(EmbeddedActiveMQ broker) {
        try {
            broker.stop();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "Stopping the embedded broker failed", e);
        }
    }

    /** A broker URL fit for a log line: its parameters may carry a password. */
    static String withoutParameters(String url) {
        int query = url.indexOf('?');
        return query < 0 ? url : url.substring(0, query);
    }
}
