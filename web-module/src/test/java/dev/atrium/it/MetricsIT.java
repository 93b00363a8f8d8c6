package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator's series at {@code /metrics} (Prometheus text): after a login that succeeds and one that fails, an
 * invocation of a listed agent and a batch job, the scrape holds the request timings per route template and status,
 * the invocation's stages, the sandbox slots, the billing queue's lag and postings, the outbox backlog and age, the
 * job's duration and outcome, and the login outcomes.
 */
@ExtendWith(AtriumServer.class)
class MetricsIT {

    @Test
    void whenTrafficWasServedThenEachOperatorSeriesIsScraped() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        var user = Accounts.verified("metrics");
        var failed = Api.anonymous().post("/login", Map.of("email", user.email(), "password", "Wrong-Passw0rd"));
        assertThat(failed.status()).isEqualTo(401);

        var staff = MarketplaceFixtures.staff();
        var agent = InvokeFixtures.listed(staff, InvokeFixtures.pythonCard("metrics-echo"), InvokeFixtures.PYTHON_ECHO);
        var invoked = InvokeFixtures.invoke(user.api(), agent.id(), Map.of("text", "count me"));
        assertThat(invoked.status()).as(invoked.toString()).isEqualTo(200);

        var admin = Accounts.admin();
        var started = admin.api().post("/api/admin/reports", Map.of("date", LocalDate.now(ZoneOffset.UTC).toString()));
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        var execution = BatchIT.awaitEnd(admin.api(), started.json().get("href").asText(), Duration.ofSeconds(60));
        assertThat(execution.get("status").asText()).isEqualTo("COMPLETED");

        String scrape = awaitScrape("atrium_billing_usage_billed_total");

        assertThat(scrape).containsPattern(series("atrium_http_request_duration_seconds_count",
                "method=\"POST\"", "route=\"/v1/agents/\\{agent_id}/invoke\"", "status=\"200\""));
        assertThat(scrape).containsPattern(series("atrium_http_request_duration_seconds_count",
                "route=\"/login\"", "status=\"401\""));
        assertThat(scrape).doesNotContain("route=\"/v1/agents/" + agent.id());
        assertThat(scrape).contains("route=\"/admin/batch-executions/{id}\"").doesNotContain("{id: ");
        for (String stage : new String[] {"admission", "queue", "sandbox", "recording"}) {
            assertThat(scrape).containsPattern(series("atrium_invoke_stage_duration_seconds_count",
                    "stage=\"" + stage + "\""));
        }
        assertThat(scrape).containsPattern(series("atrium_sandbox_slots_busy")).containsPattern(series(
                "atrium_sandbox_slots"));
        assertThat(scrape).containsPattern(series("atrium_sandbox_warm"))
                .containsPattern(series("atrium_sandbox_warm_memory_mb"))
                .containsPattern(series("atrium_sandbox_warm_hits"))
                .containsPattern(series("atrium_sandbox_warm_misses"));
        assertThat(scrape).containsPattern(series("atrium_billing_queue_lag_seconds_count"))
                .containsPattern(series("atrium_billing_entries_posted_total"));
        assertThat(scrape).containsPattern(series("atrium_outbox_pending"))
                .containsPattern(series("atrium_outbox_oldest_age_seconds"));
        assertThat(scrape).containsPattern(series("atrium_batch_job_duration_seconds_count",
                "job=\"daily-usage-report\"", "outcome=\"completed\""));
        assertThat(scrape).containsPattern(series("atrium_login_attempts_total", "outcome=\"success\""))
                .containsPattern(series("atrium_login_attempts_total", "outcome=\"failure\""));
    }

    /** A sample line of {@code name} whose labels include each of {@code labels} (a regular expression each). */
    private static Pattern series(String name, String... labels) {
        var pattern = new StringBuilder("(?m)^").append(Pattern.quote(name)).append("\\{");
        for (String label : labels) {
            pattern.append("(?=[^\\n]*").append(label).append(")");
        }
        return Pattern.compile(pattern.append("[^\\n]*} [0-9.eE+-]+$").toString());
    }

    /** The billing consumer bills after the answer: the scrape once it has. */
    private static String awaitScrape(String awaited) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            var reply = Api.anonymous().header("Accept", "text/plain").get("/metrics");
            assertThat(reply.status()).isEqualTo(200);
            if (reply.body().contains(awaited) || System.nanoTime() > deadline) {
                return reply.body();
            }
            Accounts.sleep(200);
        }
    }
}
