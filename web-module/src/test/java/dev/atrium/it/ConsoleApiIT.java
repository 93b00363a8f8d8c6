package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The endpoints the operators' console added to the API, without a browser: ending a user's sessions, the
 * operations view, the job list, stopping an execution, a user's ledger for an administrator.
 */
@ExtendWith(AtriumServer.class)
class ConsoleApiIT {

    private static Accounts.Account staff;

    @BeforeAll
    static void staff() {
        staff = MarketplaceFixtures.staff();
    }

    @Test
    void whenAnAdministratorEndsAUsersSessionsThenTheirTokensStopAndTheAccountStaysActive() {
        var user = Accounts.verified("ended");
        assertThat(user.api().get("/me/permissions").status()).isEqualTo(200);
        try (var clock = ServerClock.borrowed()) {
            // credentials end to the second: the user's token must come from an earlier one
            clock.advance(Duration.ofSeconds(2));

            var ended = staff.api().delete("/admin/users/" + user.id() + "/sessions");

            assertThat(ended.status()).as(ended.toString()).isEqualTo(204);
            assertThat(user.api().get("/me/permissions").status()).isEqualTo(401);
            var refresh = Api.anonymous().post("/refresh", Map.of("refresh_token", user.refreshToken()));
            assertThat(refresh.status()).isEqualTo(401);
            assertThat(staff.api().get("/admin/users/" + user.id()).json().get("is_active").asBoolean()).isTrue();
            var again = Accounts.login(Api.anonymous(), user.email(), user.username());
            assertThat(again.api().get("/me/permissions").status()).isEqualTo(200);
            assertThat(again.api().delete("/admin/users/" + staff.id() + "/sessions").status()).isEqualTo(403);
        }
        var audit = staff.api().get("/admin/audit-logs?user_id=" + user.id() + "&action=sessions_end").json();
        assertThat(audit.get("total").asInt()).isEqualTo(1);
        assertThat(audit.at("/items/0/actor_id").asLong()).isEqualTo(staff.id());

        assertThat(staff.api().delete("/admin/users/" + staff.id() + "/sessions").status()).isEqualTo(409);
        assertThat(staff.api().delete("/admin/users/987654321/sessions").status()).isEqualTo(404);
    }

    @Test
    void whenUsersAreSearchedByPartOfTheirEmailOrNameThenTheyAreFound() {
        var user = Accounts.verified("findme");
        String part = user.email().substring(7, 15).toUpperCase(java.util.Locale.ROOT);

        var byEmail = staff.api().get("/admin/users?search=" + part);
        var byName = staff.api().get("/admin/users?search=" + user.username() + "&sort=email");

        assertThat(byEmail.status()).as(byEmail.toString()).isEqualTo(200);
        assertThat(byEmail.json().get("total").asInt()).isEqualTo(1);
        assertThat(byEmail.json().at("/items/0/id").asLong()).isEqualTo(user.id());
        assertThat(byName.json().at("/items/0/email").asText()).isEqualTo(user.email());
        assertThat(staff.api().get("/admin/users?search=%25_%25").json().get("total").asInt()).isZero();
    }

    @Test
    void whenTheSandboxIsReadThenItsEnforcementLimitsAndEachTrustLevelsCeilingShow() {
        var reply = staff.api().get("/admin/sandbox");

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        var json = reply.json();
        assertThat(json.get("status").asText()).isEqualTo(staff.api().get("/health").json().get("sandbox").asText());
        assertThat(json.at("/enforcement/adapter").asText()).isNotBlank();
        assertThat(json.at("/limits/cpu_percent").asInt()).isEqualTo(50);
        assertThat(json.at("/limits/default_memory_mb").asInt()).isEqualTo(256);
        assertThat(json.at("/limits/default_timeout_s").asInt()).isEqualTo(120);
        var ceilings = new ArrayList<String>();
        json.get("ceilings").forEach(c -> ceilings.add(c.get("trust_level").asText() + " " + c.get("network")
                .asBoolean() + " " + c.get("memory_mb").asInt() + " " + c.get("timeout_s").asInt() + " "
                + c.get("cpu_percent").asInt()));
        assertThat(ceilings).containsExactly("unverified false 256 30 50", "community true 512 60 100",
                "official true 1024 120 200");
        assertThat(Accounts.verified("sandbox-reader").api().get("/admin/sandbox").status()).isEqualTo(403);
    }

    @Test
    void whenApiDeprecationsAreReadThenEachPrefixShowsItsSunsetSuccessorAndWhetherItIsRetired() {
        var reply = staff.api().get("/admin/api-deprecations");

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        var byPrefix = new java.util.TreeMap<String, JsonNode>();
        reply.json().get("items").forEach(d -> byPrefix.put(d.get("prefix").asText(), d));
        assertThat(byPrefix).containsOnlyKeys(AtriumServer.DEPRECATED_PREFIX, "/api/v0");
        var tags = byPrefix.get(AtriumServer.DEPRECATED_PREFIX);
        assertThat(tags.get("sunset").asText()).startsWith("2099-01-01T00:00");
        assertThat(tags.get("successor").asText()).isEqualTo("/api/v2/tags");
        assertThat(tags.get("retired").asBoolean()).isFalse();
        assertThat(byPrefix.get("/api/v0").get("retired").asBoolean()).isTrue();
        assertThat(Accounts.verified("deprecations-reader").api().get("/admin/api-deprecations").status())
                .isEqualTo(403);
    }

    @Test
    void whenOperationsAreReadThenTheOutboxAndEveryQueueWithTheDlqShow() {
        var reply = staff.api().get("/admin/operations");

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        var json = reply.json();
        assertThat(json.get("outbox_pending").asLong()).isNotNegative();
        assertThat(json.get("broker_connected").asBoolean()).isTrue();
        var names = new ArrayList<String>();
        json.get("queues").forEach(q -> {
            names.add(q.get("name").asText());
            assertThat(q.get("depth").asLong()).isNotNegative();
        });
        assertThat(names).contains("billing", "tasks", "mail").last().isEqualTo("DLQ");
        assertThat(json.at("/object_store/kind").asText()).isIn("file", "s3");
        assertThat(json.at("/object_store/reachable").asBoolean()).isTrue();
        assertThat(Accounts.verified("ops").api().get("/admin/operations").status()).isEqualTo(403);
    }

    @Test
    void whenBatchJobsAreListedThenEachHasItsScheduleParametersAndLastExecution() {
        var jobs = staff.api().get("/admin/batch-jobs").json().get("data");

        var names = new ArrayList<String>();
        jobs.forEach(j -> names.add(j.get("name").asText()));
        assertThat(names).containsExactly("daily-usage-report", "daily-marketplace-report", "quality-scoring",
                "agent-rescan", "monthly-payout");
        JsonNode payout = jobs.get(4);
        assertThat(payout.get("schedule").asText()).contains("1st");
        // nothing pauses the schedules here (atrium.batch.schedules.paused unset); EarSmokeIT pauses one
        jobs.forEach(j -> assertThat(j.get("schedule_paused").asBoolean()).as(j.toString()).isFalse());
        assertThat(payout.at("/parameters/month").asText()).contains("YYYY-MM");
        assertThat(payout.has("last_execution")).isTrue();
    }

    @Test
    void whenARunningExecutionIsStoppedThenItStopsAtACheckpoint() {
        String id = startedLongRun();

        var stopped = staff.api().post("/admin/batch-executions/" + id + "/stop");

        assertThat(stopped.status()).as(stopped.toString()).isEqualTo(200);
        assertThat(stopped.json().get("status").asText()).isIn("STOPPING", "STOPPED");
        var end = awaitStatus(id, List.of("STOPPED", "COMPLETED", "FAILED"));
        assertThat(end.get("status").asText()).isEqualTo("STOPPED");
        long read = end.at("/steps/0/read_count").asLong();
        assertThat(read).isLessThan(10_000_000L);
        assertThat(end.at("/steps/0/commit_count").asLong()).isPositive();
        assertThat(staff.api().post("/admin/batch-executions/" + id + "/stop").status()).isEqualTo(409);
        assertThat(staff.api().post("/admin/batch-executions/987654321/stop").status()).isEqualTo(404);
        assertThat(Accounts.verified("stopper").api().post("/admin/batch-executions/" + id + "/stop").status())
                .isEqualTo(403);
    }

    @Test
    void whenAnExecutionIsStoppedAsSoonAsItStartsThenItStillStops() {
        // JBatch writes STARTED over a step's STOPPING when the stop lands as the step starts; the stop waits it out
        for (int i = 0; i < 5; i++) {
            String id = startedLongRun();

            var stopped = staff.api().post("/admin/batch-executions/" + id + "/stop");

            assertThat(stopped.status()).as(stopped.toString()).isEqualTo(200);
            assertThat(awaitStatus(id, List.of("STOPPED", "COMPLETED", "FAILED")).get("status").asText())
                    .isEqualTo("STOPPED");
        }
    }

    /** Starts the test job over ten million numbers, ten per chunk (it runs until stopped), and awaits STARTED. */
    private static String startedLongRun() {
        var started = staff.api().post("/admin/batch-jobs/it-sum-of-squares/executions?count=10000000");
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        String id = started.json().get("id").asText();
        awaitStatus(id, List.of("STARTED"));
        return id;
    }

    private static JsonNode awaitStatus(String id, List<String> ends) {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            var json = staff.api().get("/admin/batch-executions/" + id).json();
            if (ends.contains(json.get("status").asText())) {
                return json;
            }
            Accounts.sleep(200);
        }
        throw new AssertionError("Execution " + id + " did not reach " + ends);
    }

    @Test
    void whenAnAdministratorReadsAUsersLedgerThenItIsTheStatementTheUserSees() {
        var user = Accounts.verified("ledger");
        assertThat(staff.api().post("/v1/admin/billing/credits", Map.of("user_id", user.id(), "amount", 12.5,
                "reason", "Console ledger test")).status()).isEqualTo(201);

        var mine = user.api().get("/v1/me/ledger").json();
        var seen = staff.api().get("/v1/admin/billing/ledgers/" + user.id()).json();

        assertThat(seen.get("items")).isEqualTo(mine.get("items"));
        assertThat(seen.get("total").asInt()).isEqualTo(mine.get("total").asInt()).isPositive();
        assertThat(seen.at("/items/0/kind").asText()).isEqualTo("admin_credit");
        assertThat(user.api().get("/v1/admin/billing/ledgers/" + user.id()).status()).isEqualTo(403);
    }

    @Test
    void whenAMonthIsReconciledThenItCoversItsDaysAndNamesTheMonth() {
        var today = java.time.LocalDate.now(java.time.ZoneOffset.UTC);
        String month = java.time.YearMonth.from(today).toString();
        var user = Accounts.verified("reconciled");
        assertThat(staff.api().post("/v1/admin/billing/credits", Map.of("user_id", user.id(), "amount", 3,
                "reason", "Month reconciliation test")).status()).isEqualTo(201);

        var byMonth = staff.api().get("/v1/admin/billing/reconciliation?month=" + month);
        var byDay = staff.api().get("/v1/admin/billing/reconciliation?date=" + today).json();

        assertThat(byMonth.status()).as(byMonth.toString()).isEqualTo(200);
        var report = byMonth.json();
        assertThat(report.get("month").asText()).isEqualTo(month);
        assertThat(report.get("date").isNull()).isTrue();
        assertThat(report.get("usage_records").asLong()).isGreaterThanOrEqualTo(byDay.get("usage_records").asLong());
        assertThat(report.get("usage_charged").decimalValue())
                .isGreaterThanOrEqualTo(byDay.get("usage_charged").decimalValue());
        assertThat(report.get("unbalanced_entries").asLong()).isZero();
        for (String bad : List.of("month=2026-13", "month=2026-1", "date=" + today + "&month=" + month, "")) {
            var refused = staff.api().get("/v1/admin/billing/reconciliation?" + bad);
            assertThat(refused.status()).as(bad).isEqualTo(422);
            assertThat(refused.json().at("/error/code").asInt()).isEqualTo(40001);
        }
    }
}
