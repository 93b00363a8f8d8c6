package dev.atrium.platform.persistence;

import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Logger;

import javax.sql.DataSource;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Lock;
import jakarta.ejb.LockType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;

import org.flywaydb.core.Flyway;

/**
 * Brings the schema of the application's data source to the newest version before anything uses it. The data
 * source is {@value #DATA_SOURCE}: on Payara Micro the WAR defines it ({@code EmbeddedDataSource}); on Payara Server
 * the EAR's {@code application.xml} maps the name to the server's pool {@code jdbc/atrium}, which an administrator
 * sizes and watches (scripts/run-server).
 */
@Startup
@Singleton
@TransactionManagement(TransactionManagementType.BEAN)
public class DatabaseMigrations {

    public static final String DATA_SOURCE = "java:global/jdbc/atrium";

    private static final Logger LOG = Logger.getLogger(DatabaseMigrations.class.getName());

    @Resource(lookup = DATA_SOURCE)
    DataSource dataSource;

    /** The schema version reached at start, null until the migrations are done (the startup probe). */
    private volatile String schemaVersion;

    @PostConstruct
    void migrate() {
        var result = Flyway.configure(DatabaseMigrations.class.getClassLoader())
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                // versions are numbered in blocks per context (files are V30, tasks V40): a database that has a
                // later block already still gets a migration of an earlier one that is new to it
                .outOfOrder(true)
                .load()
                .migrate();
        // Flyway names no target when nothing was new: the schema stayed at its initial version
        schemaVersion = Objects.requireNonNullElse(result.targetSchemaVersion,
                Objects.requireNonNullElse(result.initialSchemaVersion, "none"));
        LOG.info(() -> "Database: " + product() + ", schema at version " + result.targetSchemaVersion
                + " (" + result.migrationsExecuted + " migrations applied now)");
    }

    /** The schema version the migrations reached, empty while they run. */
    @Lock(LockType.READ)
    public Optional<String> schemaVersion() {
        return Optional.ofNullable(schemaVersion);
    }

    /** The database's product and version for the start log; its address stays out (it may carry credentials). */
    private String product() {
        try (var connection = dataSource.getConnection()) {
            var meta = connection.getMetaData();
            return meta.getDatabaseProductName() + " " + meta.getDatabaseProductVersion();
        } catch (SQLException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }
}
