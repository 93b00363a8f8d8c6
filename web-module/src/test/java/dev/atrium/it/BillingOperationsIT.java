package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Money rules an operator or an attacker tests against the running server: the platform names its payment processor
 * (the refusal to start on an external database without one is {@code resilience.DeploymentRefusalIT}'s); refunds that race make one refund; a credit needs a real
 * user; payout accounts take only IBANs and BICs of the registry; a processor payout without Stripe stays pending.
 */
@ExtendWith(AtriumServer.class)
class BillingOperationsIT {

    private static Accounts.Account staff;

    @BeforeAll
    static void staff() {
        staff = MarketplaceFixtures.staff();
    }

    private static InvokeFixtures.Listed paidAgent(String price) {
        ObjectNode card = InvokeFixtures.pythonCard("paid");
        card.putObject("pricing").put("model", "per_call").put("price_usd", new BigDecimal(price)).put("free_quota", 0);
        return InvokeFixtures.listed(staff, card, InvokeFixtures.PYTHON_ECHO);
    }

    private static BigDecimal balance(Accounts.Account user) {
        return user.api().get("/v1/me/balance").json().get("balance").decimalValue();
    }

    private static BigDecimal awaitBalance(Accounts.Account user, String expected) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        BigDecimal b = balance(user);
        while (b.compareTo(new BigDecimal(expected)) != 0 && System.nanoTime() < deadline) {
            Accounts.sleep(400);
            b = balance(user);
        }
        return b;
    }

    @Test
    void whenHealthAndOperationsAreAskedThenTheyNameThePaymentProcessor() {
        var health = Api.anonymous().get("/health");
        assertThat(health.json().get("payments").asText()).as(health.toString()).isEqualTo("webhook");
        var operations = Accounts.admin().api().get("/admin/operations");
        assertThat(operations.status()).as(operations.toString()).isEqualTo(200);
        assertThat(operations.json().get("payments").asText()).isEqualTo("webhook");
    }

    @Test
    void whenSixRefundsOfOneUsageRaceThenOneIsMadeAndTheOthersAreConflicts() throws Exception {
        var agent = paidAgent("2.00");
        var user = Accounts.verified("refund-race");
        var reply = InvokeFixtures.invoke(user.api(), agent.id(), Map.of("text", "hi"));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(awaitBalance(user, "18.00")).isEqualByComparingTo("18.00");
        UUID usageId = (UUID) InvokeFixtures.rows("SELECT id FROM agent_usage_records WHERE run_id = ?",
                UUID.fromString(reply.header("Atrium-Run-Id"))).get(0).get("id");
        var admin = staff.api();
        var start = new CountDownLatch(1);
        var pool = Executors.newFixedThreadPool(6);
        var refunds = new ArrayList<CompletableFuture<Reply>>();
        try {
            for (int i = 0; i < 6; i++) {
                int n = i;
                refunds.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return admin.post("/v1/admin/billing/refunds", Map.of("usage_id", usageId, "reason",
                            "Race " + n));
                }, pool));
            }
            start.countDown();
            CompletableFuture.allOf(refunds.toArray(CompletableFuture[]::new)).get();
        } finally {
            pool.shutdownNow();
        }
        var statuses = refunds.stream().map(CompletableFuture::join).map(Reply::status).toList();

        assertThat(statuses).as(statuses.toString()).containsOnly(201, 409).filteredOn(s -> s == 201).hasSize(1);
        refunds.stream().map(CompletableFuture::join).filter(r -> r.status() == 409).forEach(r ->
                assertThat(r.json().get("error").get("code").asInt()).as(r.toString()).isPositive());
        assertThat(InvokeFixtures.rows("SELECT id FROM journal_entries WHERE reference = ?", "refund:usage:" + usageId))
                .hasSize(1);
        assertThat(balance(user)).isEqualByComparingTo("20.00");
        var day = ((java.sql.Timestamp) InvokeFixtures.rows("SELECT recorded_at FROM agent_usage_records WHERE id = ?",
                usageId).get(0).get("recorded_at")).toInstant().atZone(java.time.ZoneOffset.UTC).toLocalDate();
        var report = admin.get("/v1/admin/billing/reconciliation?date=" + day).json();
        assertThat(report.get("unbalanced_entries").asLong()).as(report.toString()).isZero();
        assertThat(report.get("accounts_off_balance")).as(report.toString()).isEmpty();
        assertThat(report.get("accounts_off_held")).as(report.toString()).isEmpty();
        var whole = InvokeFixtures.rows("SELECT COALESCE(SUM(amount), 0) AS s FROM journal_lines").get(0).get("s");
        assertThat((BigDecimal) whole).as("the whole ledger balances").isZero();
    }

    @Test
    void whenACreditNamesAUserWhoDoesNotExistThenItIsNotFoundAndNoAccountIsCreated() throws Exception {
        long nobody = 99_999;
        assertThat(InvokeFixtures.rows("SELECT id FROM users WHERE id = ?", nobody)).as("no user 99999").isEmpty();

        var credit = staff.api().post("/v1/admin/billing/credits", Map.of("user_id", nobody, "amount", 100,
                "reason", "For whoever gets this id"));

        assertThat(credit.status()).as(credit.toString()).isEqualTo(404);
        assertThat(credit.json().get("error")).isNotNull();
        assertThat(InvokeFixtures.rows("SELECT id FROM billing_accounts WHERE owner_id = ? AND kind = 'USER_BALANCE'",
                nobody)).isEmpty();
        var user = Accounts.verified("credited");
        assertThat(staff.api().post("/v1/admin/billing/credits", Map.of("user_id", user.id(), "amount", 5,
                "reason", "A real user")).status()).isEqualTo(201);
    }

    @Test
    void whenAPayoutAccountNamesAnIbanOrBicOutsideTheRegistryThenTheFieldIsNamed() {
        var api = Accounts.verified("payee-hostile").api();
        record Case(String iban, String bic, String field) {
        }
        for (var c : List.of(new Case("US64SVBKUS6S3300958879", null, "iban"),
                new Case("DE89370400440532013000", "XXXXXXXX", "bic"),
                new Case("DE89370400440532013000", "NWBKGB2L", "bic"),
                new Case("GB82WEST12345698765432", "COBADEFFXXX", "bic"),
                new Case("DE89370400440532013000", "DEUTXXFF", "bic"))) {
            var body = new HashMap<String, Object>(Map.of("method", "bank_transfer", "holder_name", "Ada",
                    "iban", c.iban()));
            if (c.bic() != null) {
                body.put("bic", c.bic());
            }
            var reply = api.put("/v1/me/payout-account", body);
            assertThat(reply.status()).as(c + ": " + reply).isEqualTo(422);
            assertThat(reply.json().get("error").toString()).as(c.toString()).contains(c.field());
        }
        assertThat(api.get("/v1/me/payout-account").status()).as("nothing was kept").isEqualTo(404);
        for (String hostile : List.of("", "acct_", "acct_1Atrium/../../x", "ba_1AtriumTest0001")) {
            var reply = api.put("/v1/me/payout-account", Map.of("method", "processor", "holder_name", "Ada",
                    "connected_account", hostile));
            assertThat(reply.status()).as(hostile + ": " + reply).isEqualTo(422);
            assertThat(reply.json().get("error").toString()).contains("connected_account");
        }
        var good = api.put("/v1/me/payout-account", Map.of("method", "bank_transfer", "holder_name", "Ada",
                "iban", "GB82 WEST 1234 5698 7654 32", "bic", "NWBKGB2L"));
        assertThat(good.status()).as(good.toString()).isEqualTo(200);
    }

    @Test
    void whenAProcessorPayoutIsRunWithoutStripeThenItStaysPendingAndSaysWhy() throws Exception {
        var agent = paidAgent("100.00");
        var user = Accounts.verified("payer-of-processor");
        assertThat(staff.api().post("/v1/admin/billing/credits", Map.of("user_id", user.id(), "amount", 100,
                "reason", "Processor payout test")).status()).isEqualTo(201);
        assertThat(InvokeFixtures.invoke(user.api(), agent.id(), Map.of("text", "x")).status()).isEqualTo(200);
        assertThat(awaitBalance(user, "20.00")).isEqualByComparingTo("20.00");
        assertThat(agent.author().api().put("/v1/me/payout-account", Map.of("method", "processor",
                "holder_name", "Connected Dev", "connected_account", "acct_1AtriumItDeveloper01")).status())
                .isEqualTo(200);
        var recorded = (java.sql.Timestamp) InvokeFixtures.rows("SELECT MAX(recorded_at) AS t FROM "
                + "agent_usage_records WHERE user_id = ?", user.id()).get(0).get("t");
        String month = java.time.YearMonth.from(recorded.toInstant().atZone(java.time.ZoneOffset.UTC)).toString();

        var started = staff.api().post("/v1/admin/billing/payout-runs", Map.of("month", month));
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        var end = BatchIT.awaitEnd(staff.api(), started.json().get("href").asText(), Duration.ofSeconds(60));
        assertThat(end.get("status").asText()).as(end.toString()).isEqualTo("COMPLETED");

        var run = staff.api().get("/v1/admin/billing/payout-runs/" + month).json();
        var mine = new ArrayList<com.fasterxml.jackson.databind.JsonNode>();
        run.get("payouts").forEach(p -> {
            if (p.get("developer_id").asText().equals(Long.toString(agent.author().id()))) {
                mine.add(p);
            }
        });
        assertThat(mine).hasSize(1);
        var payout = mine.get(0);
        assertThat(payout.get("status").asText()).as(payout.toString()).isEqualTo("pending");
        assertThat(payout.get("amount").decimalValue()).isEqualByComparingTo("70.00");
        assertThat(payout.get("connected_account").asText()).isEqualTo("acct_1AtriumItDeveloper01");
        assertThat(payout.path("transfer_id").isMissingNode() || payout.get("transfer_id").isNull()).isTrue();
        assertThat(payout.get("reason").asText()).contains("ATRIUM_BILLING_PROCESSOR is webhook");
        assertThat(run.toString()).doesNotContain("\"sent\"");
    }
}
