package dev.atrium.platform.health;

import java.sql.SQLException;

import javax.sql.DataSource;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;

import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.persistence.AtriumDataSource;
import dev.atrium.platform.persistence.DatabaseMigrations;

/** Whether the database and the key-value store answer now, and which backends they are. */
@ApplicationScoped
public class HealthChecks {

    /** One check per dependency, plus the backend names. */
    public record Report(boolean database, boolean store, String databaseBackend, String storeBackend) {

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

    public Report check() {
        return new Report(database(), store.ping(), AtriumDataSource.vendor(config), store.backend());
    }

    private boolean database() {
        try (var connection = dataSource.getConnection()) {
            return connection.isValid(2);
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }
}
