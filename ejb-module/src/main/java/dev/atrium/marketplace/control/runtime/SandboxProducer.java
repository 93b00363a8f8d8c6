package dev.atrium.marketplace.control.runtime;

import java.nio.file.Path;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.platform.PlatformConfig;
import dev.atrium.sandbox.BubblewrapExecutor;
import dev.atrium.sandbox.Executor;

/**
 * The application's one {@link Executor}: bubblewrap with its per-run files under {@code <data-dir>/sandbox}. It
 * detects once what this machine can enforce; the gateway, the pre-listing checks and {@code /health} share it.
 */
@ApplicationScoped
public class SandboxProducer {

    private static final Logger LOG = Logger.getLogger(SandboxProducer.class.getName());

    @Inject
    @ConfigProperties
    PlatformConfig config;

    @Produces
    @ApplicationScoped
    Executor executor() {
        var executor = BubblewrapExecutor.create(Path.of(config.dataDir).toAbsolutePath().normalize()
                .resolve("sandbox"));
        var capabilities = executor.capabilities();
        if (capabilities.canRunUntrusted()) {
            LOG.info(() -> "Sandbox: " + capabilities.adapter() + ", cgroup " + capabilities.cgroupVersion());
        } else {
            LOG.warning(() -> "Sandbox: cannot enforce limits; untrusted agents are refused: "
                    + String.join("; ", capabilities.problems()));
        }
        return executor;
    }

    /**
     * Made at start rather than at the first invoke, so that the start log names the sandbox (docs/operations.md,
     * "A quiet start").
     */
    void atStart(@Observes @Initialized(ApplicationScoped.class) Object event, Executor executor) {
        executor.capabilities();
    }
}
