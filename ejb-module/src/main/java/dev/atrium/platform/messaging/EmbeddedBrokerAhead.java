package dev.atrium.platform.messaging;

import java.nio.file.Path;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.BeforeShutdown;
import jakarta.enterprise.inject.spi.Extension;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import dev.atrium.platform.startup.StartedAhead;

/**
 * Starts the embedded broker when CDI begins the application's deployment, on a thread of its own, so that its start
 * (about 2 s) runs beside the rest of the deployment and the schema migrations instead of after them;
 * {@link MessagingRuntime} takes it. The guess is made from the configuration visible this early, and only when the
 * application's own configuration file is among it; {@link #embedded} hands the broker out only for the directory it
 * was started in, and one not taken is stopped when CDI shuts down (a deployment that failed, or a remote broker
 * configured where this early look could not see it).
 */
public class EmbeddedBrokerAhead implements Extension {

    static final String BROKER_URL = "atrium.broker.url";
    static final String DATA_DIR = "atrium.data-dir";

    private static final Logger LOG = Logger.getLogger(EmbeddedBrokerAhead.class.getName());

    private volatile StartedAhead<BrokerConnection> ahead;
    private volatile Path directory;
    private volatile boolean tookAhead;

    void begin(@Observes BeforeBeanDiscovery event) {
        Config config = ConfigProvider.getConfig();
        startAhead(config.getOptionalValue(DATA_DIR, String.class), config.getOptionalValue(BROKER_URL, String.class));
    }

    /**
     * Starts the embedded broker ahead when this early configuration asks for it. {@code atrium.data-dir} is set in
     * the application's microprofile-config.properties: without it this early look sees only the server's
     * configuration, and the broker starts later, as configured.
     */
    void startAhead(Optional<String> dataDir, Optional<String> brokerUrl) {
        if (dataDir.isEmpty() || remote(brokerUrl)) {
            return;
        }
        Path dir = directory(dataDir.get());
        directory = dir;
        ahead = StartedAhead.begin("atrium-broker-start", () -> BrokerConnection.embedded(dir));
    }

    /**
     * The embedded broker with its journal in {@code dir}: the one started ahead when it was started there, else one
     * started now. Whichever failure its start met is thrown here.
     */
    BrokerConnection embedded(Path dir) {
        var started = ahead;
        if (started != null && dir.equals(directory)) {
            Optional<BrokerConnection> broker = started.take();
            if (broker.isPresent()) {
                tookAhead = true;
                return broker.get();
            }
        }
        // the broker started ahead listens in-VM at the address this one takes: it must be gone first
        discard();
        return BrokerConnection.embedded(dir);
    }

    /** Whether {@link #embedded} handed out the broker started ahead (the start log says so). */
    boolean tookAhead() {
        return tookAhead;
    }

    /**
     * Stops the broker started ahead, once its start has finished, unless it was taken: the configuration asks for
     * another, or CDI shuts down first.
     */
    void discard() {
        var started = ahead;
        if (started == null) {
            return;
        }
        try {
            started.take().ifPresent(broker -> {
                LOG.info("Stopping the embedded broker started ahead and not taken");
                broker.close();
            });
        } catch (RuntimeException e) {
            LOG.info(() -> "The embedded broker started ahead, not wanted, had failed to start: " + e.getMessage());
        }
    }

    /** CDI shuts down (the deployment failed or is undone): the broker started ahead stops unless it was taken. */
    void end(@Observes BeforeShutdown event) {
        discard();
    }

    static boolean remote(Optional<String> url) {
        return url.map(String::trim).filter(s -> !s.isEmpty()).isPresent();
    }

    static Path directory(String dataDir) {
        return Path.of(dataDir).toAbsolutePath().normalize().resolve("broker");
    }
}
