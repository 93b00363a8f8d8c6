package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.commons.csv.CSVFormat;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.atrium.it.Accounts.Account;

/**
 * Every batch job on the embedded defaults (H2 in PostgreSQL mode, what {@code scripts/run} starts), through the admin
 * API: the month's payout and its pain.001 file, both daily reports, quality scoring and the agents' re-scan run to
 * COMPLETED on the job repository the H2 migration made; the console's jobs screen reads its figures; a failed run
 * restarts from its checkpoint.
 */
@ExtendWith(AtriumServer.class)
class EmbeddedBatchJobsIT {

    private static final List<String> JOBS = List.of("daily-usage-report", "daily-marketplace-report",
            "quality-scoring", "agent-rescan", "monthly-payout");

    private static InvokeFixtures.Listed agent;
    private static Account caller;
    private static String day;

    /** A paid agent with a bank payout account, called once; its caller also talks to the echo model twice. */
    @BeforeAll
    static void setUp() {
        assumeTrue(AtriumServer.get().embedded(), "the embedded server's job repository");
        var admin = Accounts.admin();
        ObjectNode card = InvokeFixtures.pythonCard("h2paid");
        card.putObject("pricing").put("model", "per_call").put("price_usd", new BigDecimal("80.00"))
                .put("free_quota", 0);
        agent = InvokeFixtures.listed(admin, card, InvokeFixtures.PYTHON_ECHO);
        var account = agent.author().api().put("/v1/me/payout-account", Map.of("method", "bank_transfer",
                "holder_name", "Embedded Earner", "iban", "GB82 WEST 1234 5698 7654 32", "bic", "NWBKGB2L"));
        assertThat(account.status()).as(account.toString()).isEqualTo(200);
        caller = Accounts.verified("h2caller");
        var credit = admin.api().post("/v1/admin/billing/credits", Map.of("user_id", caller.id(), "amount", 100,
                "reason", "Embedded jobs test"));
        assertThat(credit.status()).as(credit.toString()).isEqualTo(201);
        day = LocalDate.now(ZoneOffset.UTC).toString();
        var call = InvokeFixtures.invoke(caller.api(), agent.id(), Map.of("text", "pay me"));
        assertThat(call.status()).as(call.toString()).isEqualTo(200);
        for (int i = 0; i < 2; i++) {
            var chat = caller.api().post("/api/chat/completions", Map.of("message", "count me " + i));
            assertThat(chat.status()).as(chat.toString()).isEqualTo(200);
        }
        awaitBalance(new BigDecimal("40.00"));
    }

    /** The call is billed by the queue's consumer: its charge (and the author's earnings) land a moment later. */
    private static void awaitBalance(BigDecimal expected) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        BigDecimal balance;
        do {
            balance = caller.api().get("/v1/me/balance").json().get("balance").decimalValue();
            if (balance.compareTo(expected) == 0) {
                return;
            }
            Accounts.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("balance " + balance + ", not " + expected);
    }

    /** An administrator of each test's own: a user's requests are limited per minute (100 by default). */
    private final Account admin = MarketplaceFixtures.staff();

    private JsonNode runToEnd(Reply started) {
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        var end = awaitEnd(started.json().get("href").asText());
        assertThat(end.get("status").asText()).as(end.toString()).isEqualTo("COMPLETED");
        return end;
    }

    /** The execution once it ended, asked once a second to stay within the administrator's request limit. */
    private JsonNode awaitEnd(String href) {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            var reply = admin.api().get(href);
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            String status = reply.json().get("status").asText();
            if (!status.equals("STARTING") && !status.equals("STARTED") && !status.equals("STOPPING")) {
                return reply.json();
            }
            Accounts.sleep(1000);
        }
        throw new AssertionError("Execution at " + href + " did not end within 120 s");
    }

    @Test
    void whenTheMonthIsPaidOutThenTheAuthorIsFiledInAValidPain001File() throws Exception {
        String month = YearMonth.now(ZoneOffset.UTC).toString();

        var end = runToEnd(admin.api().post("/v1/admin/billing/payout-runs", Map.of("month", month)));

        assertThat(end.get("exit_status").asText()).startsWith("MONTH=" + month + ",TRANSFERS=");
        var run = admin.api().get("/v1/admin/billing/payout-runs/" + month).json();
        var mine = new ArrayList<JsonNode>();
        run.get("payouts").forEach(p -> {
            if (p.get("developer_id").asLong() == agent.author().id()) {
                mine.add(p);
            }
        });
        assertThat(mine).as(run.toString()).hasSize(1);
        assertThat(mine.get(0).get("status").asText()).isEqualTo("filed");
        assertThat(mine.get(0).get("amount").decimalValue()).isEqualByComparingTo("56.00");
        var file = admin.api().get("/v1/admin/billing/payout-runs/" + month + "/file");
        assertThat(file.status()).as(file.toString()).isEqualTo(200);
        BillingIT.validatePain001(file.body().getBytes(StandardCharsets.UTF_8));
        assertThat(file.body()).contains("<IBAN>GB82WEST12345698765432</IBAN>")
                .contains("<InstdAmt Ccy=\"USD\">56.00</InstdAmt>");
        assertThat(agent.author().api().get("/v1/me/revenue?month=" + month).json().get("paid_out").decimalValue())
                .isEqualByComparingTo("56.00");
    }

    @Test
    void whenTheDailyMarketplaceReportRunsThenItListsTheAgentsCallAndGross() throws Exception {
        runToEnd(admin.api().post("/admin/batch-jobs/daily-marketplace-report/executions?date=" + day));

        var csv = admin.api().get("/v1/admin/billing/reports/" + day + ".csv");
        assertThat(csv.status()).as(csv.toString()).isEqualTo(200);
        var line = CSVFormat.RFC4180.parse(new StringReader(csv.body())).getRecords().stream()
                .filter(r -> r.get(0).equals(agent.id())).findFirst().orElseThrow();
        assertThat(line.get(2)).as("calls").isEqualTo("1");
        assertThat(new BigDecimal(line.get(4))).as("gross").isEqualByComparingTo("80.00");
        assertThat(new BigDecimal(line.get(5))).as("developer share").isEqualByComparingTo("56.00");
    }

    @Test
    void whenTheDailyUsageReportRunsThenItCountsTheCallersModelRequests() {
        runToEnd(admin.api().post("/admin/batch-jobs/daily-usage-report/executions?date=" + day));

        var csv = admin.api().get("/api/admin/reports/" + day + ".csv");
        assertThat(csv.status()).as(csv.toString()).isEqualTo(200);
        assertThat(csv.body()).startsWith("user_id,model,requests,input_tokens,output_tokens,tokens,cost\n")
                .contains("\n" + caller.id() + ",echo,2,");
    }

    @Test
    void whenQualityScoringRunsThenTheCalledAgentHasAComputedScore() {
        var before = Api.anonymous().get("/v1/agents/" + agent.id() + "/quality").json();
        assertThat(before.get("computed_at").isNull()).as(before.toString()).isTrue();

        runToEnd(admin.api().post("/admin/batch-jobs/quality-scoring/executions"));

        var after = Api.anonymous().get("/v1/agents/" + agent.id() + "/quality").json();
        assertThat(after.get("computed_at").isNull()).as(after.toString()).isFalse();
        assertThat(after.get("quality_score").asDouble()).isBetween(0.0, 5.0);
    }

    @Test
    void whenTheAgentRescanRunsThenTheCleanListedAgentIsRescannedAndStaysListed() {
        var end = runToEnd(admin.api().post("/admin/batch-jobs/agent-rescan/executions"));

        assertThat(end.get("exit_status").asText()).as(end.toString())
                .matches("RESCANNED=[1-9]\\d*,TAKEN_DOWN=\\d+,SKIPPED=\\d+,FAILED=\\d+");
        assertThat(end.at("/steps/0/read_count").asLong()).isPositive();
        assertThat(Api.anonymous().get("/v1/agents/" + agent.id()).status()).isEqualTo(200);
    }

    @Test
    void whenTheConsoleOpensTheJobsScreenThenEveryJobAndItsExecutionsAreListed() {
        runToEnd(admin.api().post("/admin/batch-jobs/daily-usage-report/executions?date=" + day));

        var jobs = admin.api().get("/admin/batch-jobs");

        assertThat(jobs.status()).as(jobs.toString()).isEqualTo(200);
        var names = new ArrayList<String>();
        jobs.json().get("data").forEach(j -> names.add(j.get("name").asText()));
        assertThat(names).containsExactlyElementsOf(JOBS);
        for (String job : JOBS) {
            // what the console's job page asks (console.js): the job's executions, 20 instances back
            var executions = admin.api().get("/admin/batch-jobs/" + job + "/executions?instances=20");
            assertThat(executions.status()).as(executions.toString()).isEqualTo(200);
        }
        var reported = admin.api().get("/admin/batch-jobs/daily-usage-report/executions?instances=20").json()
                .get("data");
        assertThat(reported).isNotEmpty();
        var last = admin.api().get("/admin/batch-executions/" + reported.get(0).get("id").asLong());
        assertThat(last.status()).as(last.toString()).isEqualTo(200);
        assertThat(last.json().get("status").asText()).isEqualTo("COMPLETED");
        assertThat(last.json().get("steps")).isNotEmpty();
    }

    @Test
    void whenTheBatchRuntimeOpensItsRepositoryThenItFindsItsTablesAndLogsNoFailure() throws Exception {
        assertThat(admin.api().get("/admin/batch-jobs").status()).isEqualTo(200);

        // Payara's repository says so when it looks for a table in vain, then fails on its H2 DDL (BLOB) and the
        // runtime cannot start; the recovery's timer asks the repository once a lease
        var failures = Files.readAllLines(AtriumServer.get().serverLog()).stream()
                .filter(line -> line.contains("table does not exists")
                        || line.contains("SEVERE") && line.contains("fish.payara.jbatch.persistence")
                        || line.contains("Could not instantiate service")
                        || line.contains("BatchRecovery") && (line.contains("SEVERE") || line.contains("WARNING")))
                .toList();
        assertThat(failures).isEmpty();
    }

    @Test
    void whenAFailedRunIsRestartedThenItContinuesFromItsCheckpointWithItsStepData() {
        // a hundred numbers, ten per chunk; the first execution fails at 55, after five chunks committed
        var started = admin.api().post("/admin/batch-jobs/it-sum-of-squares/executions?count=100&fail_at=55");
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        var failed = awaitEnd(started.json().get("href").asText());
        assertThat(failed.get("status").asText()).as(failed.toString()).isEqualTo("FAILED");

        var restarted = admin.api().post("/admin/batch-executions/" + failed.get("id").asLong() + "/restart");

        assertThat(restarted.status()).as(restarted.toString()).isEqualTo(202);
        var end = awaitEnd(restarted.json().get("href").asText());
        assertThat(end.get("status").asText()).as(end.toString()).isEqualTo("COMPLETED");
        assertThat(end.get("restart_of").asLong()).isEqualTo(failed.get("id").asLong());
        assertThat(end.at("/steps/0/read_count").asLong()).as("only what follows the checkpoint at 50")
                .isEqualTo(50);
        assertThat(end.get("exit_status").asText()).as("the sum of 1..50 carried in the step's persistent data")
                .isEqualTo("SUM=" + sumOfSquares(100));
    }

    /** 1² + 2² + … + n², n(n + 1)(2n + 1) / 6. */
    private static BigInteger sumOfSquares(long n) {
        var big = BigInteger.valueOf(n);
        return big.multiply(big.add(BigInteger.ONE)).multiply(big.shiftLeft(1).add(BigInteger.ONE))
                .divide(BigInteger.valueOf(6));
    }
}
