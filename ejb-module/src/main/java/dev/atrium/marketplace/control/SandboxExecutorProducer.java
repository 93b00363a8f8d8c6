package dev.atrium.marketplace.control;

import java.nio.file.Path;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.sandbox.BubblewrapExecutor;
import dev.atrium.sandbox.Executor;

/**
 * The application's one sandbox executor: bubblewrap with cgroup limits, its per-run files under
 * {@code <data dir>/sandbox}. What it can enforce on this machine is decided once and logged.
 */
@ApplicationScoped
public class SandboxExecutorProducer {

    private static final Logger LOG = Logger.getLogger(SandboxExecutorProducer.class.getName());

    @Inject
    @ConfigProperty(name = "atrium.data-dir", defaultValue = "./data")
    String dataDir;

    @Produces
    @ApplicationScoped
    Executor executor() {
        var executor = BubblewrapExecutor.create(Path.of(dataDir).toAbsolutePath().normalize().resolve("sandbox"));
        LOG.info(() -> "Sandbox: " + executor.capabilities());
        return executor;
    }
}
