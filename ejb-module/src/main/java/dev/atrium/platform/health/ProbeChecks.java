package dev.atrium.platform.health;

import java.lang.management.ManagementFactory;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;
import org.eclipse.microprofile.health.Startup;

import dev.atrium.platform.persistence.DatabaseMigrations;

/**
 * The checks of the three probes ({@link Probes}), split by what an orchestrator does with each answer. Liveness:
 * the process can still serve, so a restart would not help unless it is down (threads deadlocked); it asks no
 * backend, so a database outage never restarts every instance at once. Readiness: the backends every request needs
 * answer (the database and the key-value store, as {@code /health}'s status); the broker is left out because its
 * events wait in the outbox. Startup: the application is deployed and the schema migrations are done.
 */
@ApplicationScoped
public class ProbeChecks {

    @Inject
    HealthChecks checks;

    @EJB
    DatabaseMigrations migrations;

    private volatile boolean deployed;

    void deployed(@Observes @Initialized(ApplicationScoped.class) Object event) {
        deployed = true;
    }

    @Produces
    @Liveness
    HealthCheck threads() {
        return () -> {
            long[] deadlocked = ManagementFactory.getThreadMXBean().findDeadlockedThreads();
            int count = deadlocked == null ? 0 : deadlocked.length;
            return HealthCheckResponse.named("threads").status(count == 0)
                    .withData("deadlocked", count).build();
        };
    }

    @Produces
    @Readiness
    HealthCheck database() {
        return () -> {
            var probe = checks.databaseProbe();
            return HealthCheckResponse.named("database").status(probe.up())
                    .withData("backend", probe.backend()).build();
        };
    }

    @Produces
    @Readiness
    HealthCheck keyValueStore() {
        return () -> {
            var probe = checks.storeProbe();
            return HealthCheckResponse.named("redis").status(probe.up())
                    .withData("backend", probe.backend()).build();
        };
    }

    @Produces
    @Startup
    HealthCheck deployment() {
        return () -> HealthCheckResponse.named("deployment").status(deployed).build();
    }

    @Produces
    @Startup
    HealthCheck schema() {
        return () -> {
            var version = migrations.schemaVersion();
            var builder = HealthCheckResponse.named("migrations").status(version.isPresent());
            version.ifPresent(v -> builder.withData("schemaVersion", v));
            return builder.build();
        };
    }
}
