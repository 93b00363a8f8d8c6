package dev.atrium.platform.persistence;

import java.util.logging.Logger;

import javax.sql.DataSource;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;

import org.flywaydb.core.Flyway;

/**
 * Defines the application's data source and brings its schema to the newest version before anything uses it.
 */
@DataSourceDefinition(
        name = DatabaseMigrations.DATA_SOURCE,
        className = "dev.atrium.platform.persistence.AtriumDataSource",
        minPoolSize = 2,
        maxPoolSize = 30,
        maxIdleTime = 3600,
        properties = {
                "fish.payara.max-wait-time-in-millis=30000",
                "fish.payara.is-connection-validation-required=true",
                "fish.payara.connection-validation-method=meta-data",
                "fish.payara.fail-all-connections=true"
        })
@Startup
@Singleton
@TransactionManagement(TransactionManagementType.BEAN)
public class DatabaseMigrations {

    public static final String DATA_SOURCE = "java:global/jdbc/atrium";

    private static final Logger LOG = Logger.getLogger(DatabaseMigrations.class.getName());

    @Resource(lookup = DATA_SOURCE)
    DataSource dataSource;

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
        LOG.info(() -> "Database schema at version " + result.targetSchemaVersion
                + " (" + result.migrationsExecuted + " migrations applied now)");
    }
}
