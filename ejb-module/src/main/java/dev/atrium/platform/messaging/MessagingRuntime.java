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
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.platform.PlatformConfig;
import dev.atrium.platform.telemetry.Tracing;

/**
 * Owns the broker connection for the application's lifetime: starts the embedded broker, or connects to the one at
 * {@code atrium.broker.url}, and sends through it. Starts after the schema migrations; the embedded broker itself has
 * usually been started beside the deployment by then ({@link EmbeddedBrokerAhead}).
 * <p>
 * Consumers are message-driven beans on Artemis's resource adapter on both runtimes (deployed before the WAR on Payara
 * Micro, a module of the EAR on Payara Server), one per queue and one for the topic ({@link Listener}): each asks this
 * bean for its {@link MessageHandler} ({@link #handler}) or {@link TopicHandler} ({@link #topicHandler}). Where the
 * server manages the JMS resources (the EAR binds {@value ServerMessaging#CONNECTION_FACTORY} on the adapter), messages
 * go out through them ({@link ServerMessaging}) and this bean only runs the embedded broker (none when
 * {@code atrium.broker.url} names another).
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
    @ConfigProperties
    PlatformConfig config;

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
    private volatile Map<String, Integer> packSizes = Map.of();

    @PostConstruct
    void start() {
        var url = config.brokerUrl.map(String::trim).filter(s -> !s.isEmpty());
        boolean serverManaged = ServerMessaging.connectionFactory().isPresent();
        if (url.isEmpty()) {
            var directory = EmbeddedBrokerAhead.directory(config.dataDir);
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
            LOG.info(() -> "Messaging through the server's connection factory " + ServerMessaging.CONNECTION_FACTORY
                    + "; the message-driven beans consume " + queues());
        }
        broker = serverManaged ? serverMessaging : own;
    }

    @PreDestroy
    void stop() {
        if (own != null) {
            own.close();
        }
    }

    /** The handler of a queue, for its message-driven bean. */
    public Optional<MessageHandler> handler(String queue) {
        return queueHandlers.stream().filter(h -> h.queue().equals(queue)).findFirst();
    }

    /** The subscriber to a topic, for its message-driven bean. */
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

    /** The tracer of the consumers, for the message-driven beans ({@link ConsumerTrace}). */
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
