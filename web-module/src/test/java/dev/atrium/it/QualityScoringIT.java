package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.sql.DriverManager;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The quality-scoring batch job through the running server, on usage records written straight into the database:
 * the stored figures and score, the agent's quality and ranking, and the automatic takedown after 7 days below 50 %,
 * reached by moving the server clock a day.
 */
@ExtendWith(AtriumServer.class)
class QualityScoringIT {

    private static Accounts.Account staff;

    @BeforeAll
    static void setUp() {
        staff = MarketplaceFixtures.staff();
    }

    private static void usage(String agentId, Instant at, boolean succeeded, double seconds, String price)
            throws Exception {
        try (var c = DriverManager.getConnection(AtriumServer.get().jdbcUrl(), AtriumServer.Services.postgresUser(),
                "");
             var s = c.prepareStatement("INSERT INTO agent_usage_records (id, run_id, user_id, agent_id, "
                     + "agent_version, recorded_at, tokens_input, tokens_output, execution_time_s, cost_llm, "
                     + "cost_compute, price_charged, developer_share, pricing_model, succeeded) "
                     + "VALUES (?, ?, 1, ?, '1.0.0', ?, 10, 10, ?, 0, 0, ?, 0, 'PER_CALL', ?)")) {
            s.setObject(1, UUID.randomUUID());
            s.setObject(2, UUID.randomUUID());
            s.setObject(3, UUID.fromString(agentId));
            s.setTimestamp(4, Timestamp.from(at));
            s.setDouble(5, seconds);
            s.setBigDecimal(6, new BigDecimal(price));
            s.setBoolean(7, succeeded);
            s.executeUpdate();
        }
    }

    /** Runs the job as an operator does and waits for its end. */
    private static void runJob() throws Exception {
        var admin = Accounts.admin().api();
        var started = admin.post("/admin/batch-jobs/quality-scoring/executions");
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        JsonNode execution = BatchIT.awaitEnd(admin, started.json().get("href").asText(), Duration.ofSeconds(120));
        assertThat(execution.get("status").asText()).as(execution.toString()).isEqualTo("COMPLETED");
    }

    @Test
    void whenTheJobRunsThenEachListedAgentsFiguresScoreAndRankingAreStored() throws Exception {
        String id = MarketplaceFixtures.listed(staff, MarketplaceFixtures.card(MarketplaceFixtures.unique("scored")));
        var before = Api.anonymous().get("/v1/agents/" + id + "/quality").json();
        assertThat(before.get("quality_score").asDouble()).as("neutral before any measure").isEqualTo(2.5);
        assertThat(before.get("computed_at").isNull()).isTrue();
        Instant now = Instant.now();
        for (int i = 0; i < 10; i++) {
            usage(id, now.minus(Duration.ofHours(i + 1)), i < 8, 2.0, "0.010000");
        }
        usage(id, now.minus(Duration.ofDays(31)), false, 100, "9");

        runJob();

        var quality = Api.anonymous().get("/v1/agents/" + id + "/quality").json();
        // 0.8 × 2.5 + min(1, 10 / 2) + min(1, 0.05 / 0.01) × 0.5 + 1 (no incident); the older record is outside
        assertThat(quality.get("quality_score").asDouble()).isCloseTo(4.5, within(1e-9));
        assertThat(quality.get("success_rate").asDouble()).isCloseTo(0.8, within(1e-9));
        assertThat(quality.get("avg_latency_s").asDouble()).isEqualTo(2.0);
        assertThat(quality.get("avg_cost_usd").asDouble()).isCloseTo(0.01, within(1e-9));
        assertThat(quality.get("total_calls").asLong()).isEqualTo(10);
        assertThat(quality.get("window").asInt()).isEqualTo(30);
        assertThat(quality.get("computed_at").isNull()).isFalse();
        var agent = Api.anonymous().get("/v1/agents/" + id).json();
        assertThat(agent.get("quality_score").asDouble()).isCloseTo(4.5, within(1e-9));
        assertThat(agent.get("ranking_score").asDouble()).isGreaterThan(0.4 * 4.5 / 5);
        assertThat(InvokeFixtures.rows("SELECT calls, successes FROM agent_daily_quality WHERE agent_id = ?",
                UUID.fromString(id))).isNotEmpty();
    }

    @Test
    void whenTheSuccessRateStaysBelowHalfForSevenDaysThenTheAgentIsTakenDownWithTheReason() throws Exception {
        String id = MarketplaceFixtures.listed(staff, MarketplaceFixtures.card(MarketplaceFixtures.unique("failing")));
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        // six complete days and today, each 1 success in 3 calls
        for (int day = 6; day >= 0; day--) {
            Instant noon = today.minusDays(day).atStartOfDay(ZoneOffset.UTC).toInstant().plus(Duration.ofHours(12));
            Instant at = day == 0 ? Instant.now().minusSeconds(60) : noon;
            for (int call = 0; call < 3; call++) {
                usage(id, at.plusSeconds(call), call == 0, 1.0, "0.010000");
            }
        }
        try (var clock = ServerClock.borrowed()) {
            runJob();
            assertThat(Api.anonymous().get("/v1/agents/" + id).status()).as("six complete days only").isEqualTo(200);

            clock.advance(Duration.ofDays(1));
            runJob();
        }

        assertThat(Api.anonymous().get("/v1/agents/" + id).status()).isEqualTo(404);
        var history = Accounts.admin().api().get("/v1/agents/" + id + "/history?sort=-created_at").json();
        JsonNode takedown = history.at("/items/0");
        assertThat(takedown.get("action").asText()).isEqualTo("taken_down");
        assertThat(takedown.get("reason_code").asText()).isEqualTo("low_success_rate");
        assertThat(takedown.get("actor_id").asLong()).isZero();
        assertThat(takedown.get("reason").asText()).contains("1/3");
        assertThat(InvokeFixtures.rows("SELECT status FROM agents WHERE id = ?", UUID.fromString(id)).get(0)
                .get("status")).isEqualTo("SUSPENDED");
    }
}
