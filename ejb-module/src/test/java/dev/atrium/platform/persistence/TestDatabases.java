package dev.atrium.platform.persistence;

import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

import javax.sql.DataSource;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Assumptions;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Databases for the persistence tests: a new H2 in the embedded default's PostgreSQL mode, or, with
 * {@code -Datrium.test.postgres-url=jdbc:postgresql://...}, an empty PostgreSQL, with the driver set as the
 * application sets it; migrated by the application's migrations and opened by its persistence unit, resource-local.
 */
public final class TestDatabases {

    private TestDatabases() {
    }

    /** A database of its own (H2 named after {@code name}), or the PostgreSQL the property names. */
    public static DataSource dataSource(String name) {
        var postgres = System.getProperty("atrium.test.postgres-url");
        if (postgres != null) {
            var pg = new PGSimpleDataSource();
            pg.setUrl(postgres);
            pg.setReWriteBatchedInserts(true);
            return pg;
        }
        var h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:" + name + "-" + UUID.randomUUID() + AtriumDataSource.H2_OPTIONS
                + ";DB_CLOSE_DELAY=-1");
        return h2;
    }

    /** A database made for one test class on the local PostgreSQL; {@link #close} drops it. */
    public record OwnDatabase(String admin, String name, DataSource dataSource) implements AutoCloseable {

        @Override
        public void close() {
            try (var c = DriverManager.getConnection(admin)) {
                c.createStatement().execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            } catch (SQLException e) {
                throw new IllegalStateException("Dropping " + name + " failed", e);
            }
        }
    }

    /**
     * A new, migrated database named {@code prefix} and a random suffix on the local PostgreSQL (127.0.0.1:5432, user
     * postgres, or {@code -Datrium.test.postgres-admin-url}). The test is skipped when none answers, unless
     * {@code ATRIUM_TEST_REQUIRE_SERVICES=true} (as {@code scripts/test} sets it): then it fails.
     */
    public static OwnDatabase postgresOfItsOwn(String prefix) {
        var admin = System.getProperty("atrium.test.postgres-admin-url",
                "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres");
        var name = prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (var c = DriverManager.getConnection(admin)) {
            c.createStatement().execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            if ("true".equals(System.getenv("ATRIUM_TEST_REQUIRE_SERVICES"))) {
                throw new AssertionError("PostgreSQL is required (ATRIUM_TEST_REQUIRE_SERVICES): "
                        + e.getMessage(), e);
            }
            Assumptions.abort("No PostgreSQL at " + admin + ": " + e.getMessage());
        }
        var pg = new PGSimpleDataSource();
        pg.setUrl(admin.replace("/postgres?", "/" + name + "?"));
        pg.setReWriteBatchedInserts(true);
        migrate(pg);
        return new OwnDatabase(admin, name, pg);
    }

    public static void migrate(DataSource dataSource) {
        Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").outOfOrder(true).load()
                .migrate();
    }

    /** The application's persistence unit over the data source, with transactions of its own. */
    public static EntityManagerFactory entityManagers(DataSource dataSource) {
        return Persistence.createEntityManagerFactory("atrium", Map.of(
                "jakarta.persistence.transactionType", "RESOURCE_LOCAL",
                "jakarta.persistence.jtaDataSource", "",
                "jakarta.persistence.nonJtaDataSource", dataSource,
                "eclipselink.target-server", "None"));
    }

    /**
     * Runs {@code work} in a persistence context and resource-local transaction of its own, as one container-managed
     * call would: committed when it returns, rolled back when it throws.
     */
    public static <T> T inTransaction(EntityManagerFactory factory, Function<EntityManager, T> work) {
        EntityManager em = factory.createEntityManager();
        try {
            em.getTransaction().begin();
            T result = work.apply(em);
            em.getTransaction().commit();
            return result;
        } finally {
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.close();
        }
    }
}
