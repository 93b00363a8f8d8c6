package dev.atrium.platform.health;

import java.sql.SQLException;

import javax.sql.DataSource;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;

import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.messaging.MessagingRuntime;
import dev.atrium.platform.persistence.AtriumDataSource;
import dev.atrium.platform.persistence.DatabaseMigrations;

/**
 * Whether the database and the key-value store answer now, and which backends they are; and whether the broker is
 * connected. The broker does not make the instance unhealthy: while it is away, requests still succeed and their
 * events wait in the outbox.
 */
@ApplicationScoped
public class HealthChecks {

    /** One check per dependency, plus the backend names. */
    public record Report(boolean database, boolean store, boolean broker, String databaseBackend,
                         String storeBackend) {

        public boolean healthy() {
            return database && store;
        }
    }

    @Resource(lookup = DatabaseMigrations.DATA_SOURCE)
    DataSource dataSource;

    @Inject
    KeyValueStore store;

    @Inject
    Config config;

    @EJB
    MessagingRuntime messaging;

    public Report check() {
        return new Report(database(), store.ping(), broker(), AtriumDataSource.vendor(config), store.backend());
    }

    /** The database alone, named by its backend (the readiness probe asks each dependency apart). */
    public Probe databaseProbe() {
        return new Probe(database(), AtriumDataSource.vendor(config));
    }

    /** The key-value store alone, named by its backend. */
    public Probe storeProbe() {
        return new Probe(store.ping(), store.backend());
    }

    /** One dependency: whether it answers, and which backend it is. */
    public record Probe(boolean up, String backend) {
    }

    private boolean broker() {
        try {
            var connection = messaging.broker();
            return connection != null && connection.connected();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private boolean database() {
        try (var connection = dataSource.getConnection()) {
            return connection.isValid(2);
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }
}
