package dev.atrium.platform.messaging;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.platform.ServerResources;
import dev.atrium.platform.telemetry.Tracing;

/**
 * Owns the broker connection for the application's lifetime: starts the embedded broker, or connects to the
 * one at {@code atrium.broker.url}, then starts consumers for every {@link MessageHandler} and
 * {@link TopicHandler} bean on threads of the container's managed thread factory, so that handlers run with
 * the application's context and may call EJBs. Starts after the schema migrations, because handlers read
 * and write the database; the embedded broker itself has usually been started beside the deployment by then
 * ({@link EmbeddedBrokerAhead}).
 * <p>
 * Where the server manages the JMS resources (the EAR on Payara Server binds {@value ServerMessaging#CONNECTION_FACTORY}
 * through Artemis's resource adapter), messages go out through them ({@link ServerMessaging}) and the server's
 * message-driven beans consume them, calling {@link #handler} and {@link #topicHandler}; this bean then only runs the
 * embedded broker the adapter reaches in-VM (none when {@code atrium.broker.url} names another).
 * <p>
 * The embedded broker redelivers a failed message twice, 5 s apart, then moves it to {@code DLQ}. A remote
 * broker does what its own address settings say.
 */
@Startup
@Singleton
@DependsOn("DatabaseMigrations")
@TransactionManagement(TransactionManagementType.BEAN)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class MessagingRuntime {

    private static final Logger LOG = Logger.getLogger(MessagingRuntime.class.getName());

    @Inject
    @ConfigProperty(name = "atrium.broker.url")
    Optional<String> brokerUrl;

    @Inject
    @ConfigProperty(name = "atrium.data-dir", defaultValue = "./data")
    String dataDir;

    @Resource(lookup = ServerResources.WORKERS)
    ManagedThreadFactory threads;

    @Inject
    @Any
    Instance<MessageHandler> queueHandlers;

    @Inject
    @Any
    Instance<TopicHandler> topicHandlers;

    @EJB
    ServerMessaging serverMessaging;

    @Inject
    EmbeddedBrokerAhead ahead;

    // off until injected (tests that make the runtime by hand)
    @Inject
    Tracing tracing = new Tracing();

    // the broker this instance runs, or its own client connection; null when the server's resources reach a remote one
    private volatile BrokerConnection own;
    private volatile Messaging broker;
    private volatile boolean serverManaged;
    private volatile Map<String, Integer> packSizes = Map.of();

    @PostConstruct
    void start() {
        var url = brokerUrl.map(String::trim).filter(s -> !s.isEmpty());
        serverManaged = ServerMessaging.connectionFactory().isPresent();
        if (url.isEmpty()) {
            var directory = EmbeddedBrokerAhead.directory(dataDir);
            own = ahead.embedded(directory);
            String how = ahead.tookAhead() ? " (started ahead, beside the deployment)" : "";
            LOG.info(() -> "Broker: Embedded broker started" + how + ", journal in " + directory);
        } else {
            ahead.discard();
            if (!serverManaged) {
                own = BrokerConnection.remote(url.get());
                LOG.info(() -> "Broker: messaging on the broker at " + BrokerConnection.withoutParameters(url.get()));
            }
        }
        var sizes = new TreeMap<String, Integer>();
        for (var handler : queueHandlers) {
            if (handler.batchSize() > 1) {
                sizes.merge(handler.queue(), handler.batchSize(), Math::min);
            }
        }
        packSizes = Map.copyOf(sizes);
        if (serverManaged) {
            broker = serverMessaging;
            LOG.info(() -> "Messaging through the server's connection factory " + ServerMessaging.CONNECTION_FACTORY
                    + "; the server's message-driven beans consume " + queues());
            return;
        }
        broker = own;
        own.traceWith(tracing.tracer());
        try {
            for (var handler : queueHandlers) {
                own.consume(handler, threads);
                LOG.fine(() -> "Consuming queue " + handler.queue() + " with " + handler.concurrency()
                        + " consumer(s)");
            }
            for (var handler : topicHandlers) {
                own.subscribe(handler, threads);
                LOG.fine(() -> "Subscribed to topic " + handler.topic());
            }
        } catch (RuntimeException e) {
            own.close();
            throw e;
        }
    }

    @PreDestroy
    void stop() {
        if (own != null) {
            own.close();
        }
    }

    /** Whether the server's resources carry the messages (see the class comment). */
    public boolean serverManaged() {
        return serverManaged;
    }

    /** The handler of a queue, for the server's message-driven beans. */
    public Optional<MessageHandler> handler(String queue) {
        return queueHandlers.stream().filter(h -> h.queue().equals(queue)).findFirst();
    }

    /** The subscriber to a topic, for the server's message-driven beans. */
    public Optional<TopicHandler> topicHandler(String topic) {
        return topicHandlers.stream().filter(h -> h.topic().equals(topic)).findFirst();
    }

    /** The application's queues, the dead-letter queue last. */
    public List<String> queues() {
        var names = new TreeSet<String>();
        queueHandlers.forEach(h -> names.add(h.queue()));
        var all = new ArrayList<>(names);
        all.add(BrokerConnection.DEAD_LETTER_QUEUE);
        return all;
    }

    /** The tracer of the consumers, for the server's message-driven beans ({@link ConsumerTrace}). */
    public Tracing tracing() {
        return tracing;
    }

    /**
     * The queues whose consumer takes batches ({@link MessageHandler#batchSize()} above 1), with their batch size: the
     * outbox relay packs their events that many to a message, one per line, and the consumers unpack them.
     */
    public Map<String, Integer> packSizes() {
        return packSizes;
    }

    /** The way to the broker; the application's events reach it through the outbox relay. */
    public Messaging broker() {
        return broker;
    }
}
