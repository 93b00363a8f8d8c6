package dev.atrium.platform.events;

import java.sql.SQLException;
import java.time.Clock;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

import javax.sql.DataSource;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.postgresql.ds.PGSimpleDataSource;

import dev.atrium.platform.PlatformConfig;
import dev.atrium.platform.config.ConfigDefaults;

/**
 * The outbox table on the JPA provider the server uses: H2 in PostgreSQL mode, or with
 * {@code -Datrium.test.postgres-url=jdbc:postgresql://...} an empty PostgreSQL database. Each {@link #inTransaction}
 * is one transaction on its own connection, as each relay round is in the container.
 */
final class OutboxTables implements AutoCloseable {

    final DataSource dataSource;
    final EntityManagerFactory factory;
    private final Clock clock;

    OutboxTables(Clock clock) {
        this.clock = clock;
        dataSource = dataSource();
        Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load().migrate();
        if (onPostgres()) {
            // each instance starts with an empty outbox, as each H2 database is new
            try (var connection = dataSource.getConnection(); var statement = connection.createStatement()) {
                statement.execute("DELETE FROM outbox_events");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
        factory = Persistence.createEntityManagerFactory("atrium", Map.of(
                "jakarta.persistence.transactionType", "RESOURCE_LOCAL",
                "jakarta.persistence.jtaDataSource", "",
                "jakarta.persistence.nonJtaDataSource", dataSource,
                "eclipselink.target-server", "None"));
    }

    static boolean onPostgres() {
        return System.getProperty("atrium.test.postgres-url") != null;
    }

    private static DataSource dataSource() {
        var postgres = System.getProperty("atrium.test.postgres-url");
        if (postgres != null) {
            var pg = new PGSimpleDataSource();
            pg.setUrl(postgres);
            return pg;
        }
        var h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:outbox-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        return h2;
    }

    /** Runs the work in one transaction; rolls back when it throws. */
    <T> T inTransaction(Function<OutboxStore, T> work) {
        EntityManager em = factory.createEntityManager();
        try {
            var store = new OutboxStore();
            store.config = ConfigDefaults.of(PlatformConfig.class);
            store.em = em;
            store.clock = clock;
            em.getTransaction().begin();
            try {
                T result = work.apply(store);
                em.getTransaction().commit();
                return result;
            } catch (RuntimeException e) {
                if (em.getTransaction().isActive()) {
                    em.getTransaction().rollback();
                }
                throw e;
            }
        } finally {
            em.close();
        }
    }

    void clear() {
        try (var c = dataSource.getConnection(); var s = c.createStatement()) {
            s.executeUpdate("DELETE FROM outbox_events");
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        factory.close();
    }

    /** An event of the tests: a queue message carrying an id. */
    record Ping(String id) implements ApplicationEvent {
        @Override
        public String destination() {
            return "pings";
        }

        @Override
        public String payload() {
            return id;
        }
    }
}
