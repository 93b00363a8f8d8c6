package dev.atrium.platform.boundary;

import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;

import dev.atrium.platform.persistence.DatabaseMigrations;

/**
 * The data source of the WAR on Payara Micro, pooled by the runtime: PostgreSQL when {@code atrium.db.url} says so,
 * else the embedded H2 file database ({@code AtriumDataSource} decides). The spec's pool: 20 steady + 10 overflow,
 * 30 s wait, connections recycled after 3600 s idle. The WAR inside the EAR is built without this class: on Payara
 * Server the name is the server's pool's (scripts/run-server, server-config/payara).
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
@WebListener
public class EmbeddedDataSource implements ServletContextListener {
}
