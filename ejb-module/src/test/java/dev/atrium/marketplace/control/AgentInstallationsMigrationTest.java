package dev.atrium.marketplace.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import dev.atrium.platform.persistence.TestDatabases;

/**
 * V74 gives every existing agent its listed price from its pricing JSON (0 without pricing, or with pricing it
 * cannot read), and adds installations, one per user and agent. Over H2 in PostgreSQL mode, or an empty PostgreSQL
 * with {@code -Datrium.test.postgres-url}.
 */
class AgentInstallationsMigrationTest {

    private static final Timestamp T0 = Timestamp.from(Instant.parse("2026-11-01T10:00:00Z"));

    private static Flyway flyway(DataSource ds, String target) {
        var config = Flyway.configure().dataSource(ds).locations("classpath:db/migration").outOfOrder(true);
        return (target == null ? config : config.target(target)).load();
    }

    @Test
    void whenMigratedThenEachAgentIsListedAtItsCardsPriceAndInstallationsAreOnePerUser() throws SQLException {
        DataSource ds = TestDatabases.dataSource("installations");
        flyway(ds, "73").migrate();
        var agents = new LinkedHashMap<UUID, String>();
        agents.put(UUID.randomUUID(), "{\"model\":\"per_call\",\"price_usd\":2.25,\"free_quota\":0}");
        agents.put(UUID.randomUUID(), "{\"model\":\"per_token\",\"price_usd\":0.000123}");
        agents.put(UUID.randomUUID(), null);
        agents.put(UUID.randomUUID(), "not json at all");
        agents.put(UUID.randomUUID(), "{\"model\":\"per_call\",\"price_usd\":-4}");
        try (Connection c = ds.getConnection()) {
            int n = 0;
            for (Map.Entry<UUID, String> e : agents.entrySet()) {
                try (var s = c.prepareStatement("INSERT INTO agents (id, name, display_name, author_id, description, "
                        + "version, agent_card, capabilities, pricing, trust_level, status, category, smoke_status, "
                        + "created_at, updated_at) VALUES (?, ?, 'x', 7, 'd', '1.0.0', '{}', '[]', ?, 'UNVERIFIED', "
                        + "'PENDING', 'tools', 'PASSED', ?, ?)")) {
                    s.setObject(1, e.getKey());
                    s.setString(2, "agent-" + n++);
                    s.setString(3, e.getValue());
                    s.setTimestamp(4, T0);
                    s.setTimestamp(5, T0);
                    s.executeUpdate();
                }
            }
        }

        flyway(ds, null).migrate();

        var prices = new LinkedHashMap<UUID, BigDecimal>();
        try (Connection c = ds.getConnection()) {
            for (UUID id : agents.keySet()) {
                try (var s = c.prepareStatement("SELECT price_usd FROM agents WHERE id = ?")) {
                    s.setObject(1, id);
                    try (var r = s.executeQuery()) {
                        r.next();
                        prices.put(id, r.getBigDecimal(1));
                    }
                }
            }
            assertThat(prices.values()).usingElementComparator(BigDecimal::compareTo).containsExactly(
                    new BigDecimal("2.25"), new BigDecimal("0.000123"), BigDecimal.ZERO, BigDecimal.ZERO,
                    BigDecimal.ZERO);

            UUID agent = agents.keySet().iterator().next();
            install(c, agent, 1);
            try {
                install(c, agent, 1);
                throw new AssertionError("a second installation of one user and agent was stored");
            } catch (SQLException expected) {
                assertThat(expected.getMessage()).containsIgnoringCase("uq_agent_installations_user");
            }
            install(c, agent, 2);
        }
    }

    private static void install(Connection c, UUID agent, long user) throws SQLException {
        try (var s = c.prepareStatement("INSERT INTO agent_installations (id, agent_id, user_id, installed_at, "
                + "created_at) VALUES (?, ?, ?, ?, ?)")) {
            s.setObject(1, UUID.randomUUID());
            s.setObject(2, agent);
            s.setLong(3, user);
            s.setTimestamp(4, T0);
            s.setTimestamp(5, T0);
            s.executeUpdate();
        }
    }
}
