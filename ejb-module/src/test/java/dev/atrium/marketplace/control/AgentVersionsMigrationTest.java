package dev.atrium.marketplace.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * V24 splits agents into agents and their versions: every agent and every submitted version of the old shape
 * survives, the embedding moves to the version it belonged to, and each agent that had an approved version serves
 * its newest one. Over H2 in PostgreSQL mode, or an empty PostgreSQL with {@code -Datrium.test.postgres-url}.
 */
class AgentVersionsMigrationTest {

    private static final Timestamp T0 = Timestamp.from(Instant.parse("2026-11-01T10:00:00Z"));
    private static final Timestamp T1 = Timestamp.from(Instant.parse("2026-11-02T10:00:00Z"));
    private static final Timestamp T2 = Timestamp.from(Instant.parse("2026-11-03T10:00:00Z"));

    private static DataSource dataSource() {
        var postgres = System.getProperty("atrium.test.postgres-url");
        if (postgres != null) {
            var pg = new PGSimpleDataSource();
            pg.setUrl(postgres);
            return pg;
        }
        var h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:versions-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        return h2;
    }

    private static Flyway flyway(DataSource ds, String target) {
        var config = Flyway.configure().dataSource(ds).locations("classpath:db/migration").outOfOrder(true);
        return (target == null ? config : config.target(target)).load();
    }

    @Test
    void whenMigratedThenEveryAgentAndVersionIsKeptAndTheNewestApprovedServes() throws SQLException {
        DataSource ds = dataSource();
        flyway(ds, "23").migrate();
        UUID listed = UUID.randomUUID();
        UUID resubmitted = UUID.randomUUID();
        UUID pending = UUID.randomUUID();
        UUID v1 = UUID.randomUUID();
        UUID v2 = UUID.randomUUID();
        UUID r1 = UUID.randomUUID();
        UUID r2 = UUID.randomUUID();
        UUID p1 = UUID.randomUUID();
        try (Connection c = ds.getConnection()) {
            // listed at 1.1.0 after 1.0.0 was approved, then 1.1.0 approved
            agent(c, listed, "listed", "1.1.0", "ACTIVE", new byte[] {1, 2, 3, 4});
            version(c, v1, listed, "1.0.0", "APPROVED", T0);
            version(c, v2, listed, "1.1.0", "APPROVED", T1);
            // was listed at 1.0.0, resubmitted as 2.0.0 which waits for review (the old model took it out of search)
            agent(c, resubmitted, "resubmitted", "2.0.0", "PENDING", new byte[] {5, 6, 7, 8});
            version(c, r1, resubmitted, "1.0.0", "APPROVED", T0);
            version(c, r2, resubmitted, "2.0.0", "PENDING_REVIEW", T2);
            // never reviewed
            agent(c, pending, "pending", "0.1.0", "PENDING", null);
            version(c, p1, pending, "0.1.0", "PENDING_REVIEW", T0);
        }

        flyway(ds, null).migrate();

        try (Connection c = ds.getConnection()) {
            assertThat(rows(c, "SELECT id, status, version, current_version_id, candidate_version_id, rollout_state "
                    + "FROM agents ORDER BY name")).containsExactly(
                    List.of(listed.toString(), "ACTIVE", "1.1.0", v2.toString(), "null", "NONE"),
                    List.of(pending.toString(), "PENDING", "0.1.0", "null", "null", "NONE"),
                    List.of(resubmitted.toString(), "PENDING", "2.0.0", r1.toString(), "null", "NONE"));
            assertThat(rows(c, "SELECT id, version, status, embedding IS NOT NULL FROM agent_versions "
                    + "ORDER BY name, version")).containsExactly(
                    List.of(v1.toString(), "1.0.0", "APPROVED", "false"),
                    List.of(v2.toString(), "1.1.0", "APPROVED", "true"),
                    List.of(p1.toString(), "0.1.0", "PENDING_REVIEW", "false"),
                    List.of(r1.toString(), "1.0.0", "APPROVED", "false"),
                    List.of(r2.toString(), "2.0.0", "PENDING_REVIEW", "true"));
            // a version number is taken once per agent; a listed agent must serve a version
            assertThatThrownBy(() -> version(c, UUID.randomUUID(), listed, "1.1.0", "PENDING_REVIEW", T2))
                    .isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> c.createStatement().executeUpdate(
                    "UPDATE agents SET status = 'ACTIVE' WHERE name = 'pending'")).isInstanceOf(SQLException.class);
        }
    }

    private static void agent(Connection c, UUID id, String name, String version, String status, byte[] embedding)
            throws SQLException {
        try (var s = c.prepareStatement("INSERT INTO agents (id, name, display_name, author_id, description, version, "
                + "agent_card, capabilities, trust_level, status, category, embedding, embedding_model, "
                + "bundle_key, smoke_status, created_at, updated_at) VALUES (?, ?, ?, 7, 'd', ?, '{}', '[]', "
                + "'UNVERIFIED', ?, 'tools', ?, 'm', 'k', 'PASSED', ?, ?)")) {
            s.setObject(1, id);
            s.setString(2, name);
            s.setString(3, name);
            s.setString(4, version);
            s.setString(5, status);
            s.setBytes(6, embedding);
            s.setTimestamp(7, T0);
            s.setTimestamp(8, T0);
            s.executeUpdate();
        }
    }

    private static void version(Connection c, UUID id, UUID agent, String version, String status, Timestamp at)
            throws SQLException {
        String table = tableExists(c, "agent_versions") ? "agent_versions" : "agent_submissions";
        try (var s = c.prepareStatement("INSERT INTO " + table + " (id, agent_id, author_id, name, version, "
                + "agent_card, bundle_key, smoke_status, status, review_due_at, created_at) "
                + "VALUES (?, ?, 7, (SELECT name FROM agents WHERE id = ?), ?, '{}', 'k', 'PASSED', ?, ?, ?)")) {
            s.setObject(1, id);
            s.setObject(2, agent);
            s.setObject(3, agent);
            s.setString(4, version);
            s.setString(5, status);
            s.setTimestamp(6, at);
            s.setTimestamp(7, at);
            s.executeUpdate();
        }
    }

    private static boolean tableExists(Connection c, String table) throws SQLException {
        try (var r = c.getMetaData().getTables(null, null, table, null)) {
            return r.next();
        }
    }

    private static List<List<String>> rows(Connection c, String sql) throws SQLException {
        var rows = new ArrayList<List<String>>();
        try (var r = c.createStatement().executeQuery(sql)) {
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                var row = new ArrayList<String>();
                for (int i = 1; i <= n; i++) {
                    row.add(String.valueOf(r.getObject(i)));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
