package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.function.Predicate;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.atrium.platform.webhook.WebhookSignature;

/**
 * Money through the running server: paid invocations hold the price, the billing queue settles them into the
 * double-entry ledger exactly once (also when the same event arrives twice), concurrent calls never overspend, a low
 * balance is mailed once, top-ups are credited once by a signed webhook, administrators credit and refund.
 */
@ExtendWith(AtriumServer.class)
class BillingIT {

    private static Accounts.Account staff;

    @BeforeAll
    static void staff() {
        staff = MarketplaceFixtures.staff();
    }

    /** A listed echo agent charging {@code price} per call; its id and author. */
    private static InvokeFixtures.Listed paidAgent(String price) {
        ObjectNode card = InvokeFixtures.pythonCard("paid");
        card.putObject("pricing").put("model", "per_call").put("price_usd", new BigDecimal(price)).put("free_quota", 0);
        return InvokeFixtures.listed(staff, card, InvokeFixtures.PYTHON_ECHO);
    }

    private static BigDecimal balance(Accounts.Account user) {
        var reply = user.api().get("/v1/me/balance");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json().get("balance").decimalValue();
    }

    private static BigDecimal awaitBalance(Accounts.Account user, Predicate<BigDecimal> done) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        BigDecimal b;
        do {
            b = balance(user);
            if (done.test(b)) {
                return b;
            }
            // the caller's requests share a budget of 100 a minute
            Accounts.sleep(400);
        } while (System.nanoTime() < deadline);
        return b;
    }

    private static BigDecimal sum(String sql, Object... parameters) throws Exception {
        var rows = InvokeFixtures.rows(sql, parameters);
        Object v = rows.isEmpty() ? null : rows.get(0).values().iterator().next();
        return v == null ? BigDecimal.ZERO.setScale(6) : ((BigDecimal) v).setScale(6);
    }

    private static BigDecimal money(String amount) {
        return new BigDecimal(amount).setScale(6);
    }

    private static long openHolds(Accounts.Account user) throws Exception {
        return ((Number) InvokeFixtures.rows("SELECT COUNT(*) AS n FROM billing_holds h JOIN billing_accounts a ON "
                + "a.id = h.account_id WHERE a.owner_id = ? AND a.kind = 'USER_BALANCE' AND h.status = 'OPEN'",
                user.id()).get(0).get("n")).longValue();
    }

    @Test
    void whenTheRelayLooksForDueEventsThenAPartialIndexOfPendingRowsServesItOnPostgres() throws Exception {
        // without it the planner read every pending row, and every row sent since the last vacuum, on each round
        var index = InvokeFixtures.rows("SELECT indexdef FROM pg_indexes WHERE tablename = 'outbox_events' "
                + "AND indexname = 'ix_outbox_events_pending'");

        assertThat(index).hasSize(1);
        assertThat(index.get(0).get("indexdef").toString()).contains("(created_at)")
                .contains("WHERE (sent_at IS NULL)");
    }

    @Test
    void whenAPaidAgentIsInvokedThenTheBalancePaysAndTheSplitAddsUpExactlyOnce() throws Exception {
        var agent = paidAgent("0.37");
        var user = Accounts.verified("payer");
        assertThat(balance(user)).isEqualByComparingTo(AtriumServer.SIGNUP_CREDIT);

        var reply = InvokeFixtures.invoke(user.api(), agent.id(), Map.of("text", "hi"));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        String runId = reply.headers().firstValue("Atrium-Run-Id").orElseThrow();

        assertThat(awaitBalance(user, b -> b.compareTo(money("19.63")) == 0)).isEqualByComparingTo("19.63");
        var usage = InvokeFixtures.rows("SELECT id FROM agent_usage_records WHERE run_id = ?", UUID.fromString(runId));
        UUID usageId = (UUID) usage.get(0).get("id");
        String reference = "usage:" + usageId;
        assertThat(sum("SELECT SUM(l.amount) FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id "
                + "WHERE e.reference = ?", reference)).as("an entry's lines sum to zero").isZero();
        assertThat(sum("SELECT a.balance FROM billing_accounts a WHERE a.kind = 'DEVELOPER_EARNINGS' AND "
                + "a.owner_id = ?", agent.author().id())).as("70 %").isEqualTo(money("0.259"));
        assertThat(openHolds(user)).isZero();

        // the same event once more, as a duplicating relay or broker would deliver it
        InvokeFixtures.rows("INSERT INTO outbox_events (id, event_type, destination, broadcast, payload, created_at) "
                + "VALUES (?, 'UsageRecorded', 'billing', FALSE, ?, now()) RETURNING id", UUID.randomUUID(),
                usageId.toString());
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline && !InvokeFixtures.rows("SELECT id FROM outbox_events WHERE payload = ? "
                + "AND sent_at IS NULL", usageId.toString()).isEmpty()) {
            Accounts.sleep(100);
        }
        Accounts.sleep(1000);
        assertThat(InvokeFixtures.rows("SELECT id FROM journal_entries WHERE reference = ?", reference)).hasSize(1);
        assertThat(balance(user)).isEqualByComparingTo("19.63");
        var statement = user.api().get("/v1/me/ledger");
        assertThat(statement.status()).as(statement.toString()).isEqualTo(200);
        assertThat(statement.json().get("items")).extracting(i -> i.get("kind").asText())
                .containsExactly("usage", "signup_credit");
    }

    @Test
    void whenFiftyCallsRaceForTheLastCreditThenTheBalanceNeverGoesBelowZero() throws Exception {
        var agent = paidAgent("5.00");
        var user = Accounts.verified("racer");
        var pool = Executors.newFixedThreadPool(50);
        var calls = new ArrayList<Callable<Reply>>();
        for (int i = 0; i < 50; i++) {
            calls.add(() -> InvokeFixtures.invoke(user.api(), agent.id(), Map.of("text", "race")));
        }
        var statuses = new ArrayList<Integer>();
        var refusals = new ArrayList<Integer>();
        try {
            for (var f : pool.invokeAll(calls)) {
                Reply r = f.get();
                statuses.add(r.status());
                if (r.status() == 402) {
                    refusals.add(r.json().get("error").get("code").asInt());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        long paid = statuses.stream().filter(s -> s == 200).count();

        assertThat(paid).as(statuses.toString()).isBetween(1L, 4L);
        assertThat(refusals).isNotEmpty().containsOnly(30001);
        assertThat(statuses).isSubsetOf(200, 402, 503);
        BigDecimal expected = money(AtriumServer.SIGNUP_CREDIT).subtract(money("5.00").multiply(BigDecimal.valueOf(
                paid)));
        assertThat(awaitBalance(user, b -> b.compareTo(expected) == 0)).isEqualByComparingTo(expected)
                .isGreaterThanOrEqualTo(BigDecimal.ZERO);
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (openHolds(user) > 0 && System.nanoTime() < deadline) {
            Accounts.sleep(100);
        }
        assertThat(openHolds(user)).isZero();
        assertThat(sum("SELECT held FROM billing_accounts WHERE kind = 'USER_BALANCE' AND owner_id = ?", user.id()))
                .isZero();
    }

    @Test
    void whenTheBalanceFallsBelowOneThenOneNoticeIsMailedThatDay() throws Exception {
        var expensive = paidAgent("19.50");
        var cheap = paidAgent("0.10");
        var user = Accounts.verified("lowbalance");

        assertThat(InvokeFixtures.invoke(user.api(), expensive.id(), Map.of("text", "a")).status()).isEqualTo(200);
        Accounts.awaitMail(user.email(), "balance is low", Duration.ofSeconds(20));
        assertThat(awaitBalance(user, b -> b.compareTo(money("0.50")) == 0)).isEqualByComparingTo("0.50");
        var refused = InvokeFixtures.invoke(user.api(), expensive.id(), Map.of("text", "b"));
        assertThat(refused.status()).as(refused.toString()).isEqualTo(402);
        assertThat(refused.json().get("error").get("code").asInt()).isEqualTo(30001);
        assertThat(InvokeFixtures.invoke(user.api(), cheap.id(), Map.of("text", "c")).status()).isEqualTo(200);
        assertThat(awaitBalance(user, b -> b.compareTo(money("0.40")) == 0)).isEqualByComparingTo("0.40");
        Accounts.sleep(1500);

        assertThat(Accounts.mails(user.email()).stream().filter(m -> m.contains("balance is low"))).hasSize(1);
    }

    private static Reply webhook(String body, String signature) {
        var api = Api.anonymous();
        if (signature != null) {
            api = api.header(WebhookSignature.HEADER, signature);
        }
        return api.send("POST", "/v1/billing/webhooks/top-ups", body.getBytes(StandardCharsets.UTF_8),
                "application/json");
    }

    private static String signed(String body, Instant at) {
        return WebhookSignature.sign(AtriumServer.WEBHOOK_SECRET.getBytes(StandardCharsets.UTF_8),
                at.getEpochSecond(), body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void whenATopUpIsConfirmedByASignedWebhookThenItIsCreditedOnceWhateverIsReplayed() {
        var user = Accounts.verified("topup");
        var created = user.api().post("/v1/billing/top-ups", Map.of("amount", new BigDecimal("12.34")));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().get("status").asText()).isEqualTo("pending");
        String id = created.json().get("id").asText();
        assertThat(balance(user)).isEqualByComparingTo(AtriumServer.SIGNUP_CREDIT);
        String body = "{\"type\":\"top_up.succeeded\",\"data\":{\"top_up_id\":\"" + id + "\"}}";
        Instant now = Instant.now();

        assertThat(webhook(body, null).status()).isEqualTo(401);
        assertThat(webhook(body, "t=" + now.getEpochSecond() + ",v1=" + "00".repeat(32)).status()).isEqualTo(401);
        assertThat(webhook(body, signed(body.replace("succeeded", "failed"), now)).status()).isEqualTo(401);
        assertThat(webhook(body, signed(body, now.minusSeconds(301))).status()).isEqualTo(400);
        var first = webhook(body, signed(body, now));
        var replay = webhook(body, signed(body, now));

        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(first.json().get("credited").asBoolean()).isTrue();
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.json().get("credited").asBoolean()).isFalse();
        assertThat(balance(user)).isEqualByComparingTo("32.34");
        assertThat(user.api().get("/v1/billing/top-ups/" + id).json().get("status").asText()).isEqualTo("succeeded");
        assertThat(Accounts.verified("other").api().get("/v1/billing/top-ups/" + id).status()).isEqualTo(404);
    }

    @Test
    void whenATopUpAmountIsHostileThenItIsRefusedAndNothingIsCreated() throws Exception {
        var user = Accounts.verified("hostile-topup");
        List<Object> hostile = List.of(-1, 0, new BigDecimal("0.99"), new BigDecimal("1.001"),
                new BigDecimal("10000.01"), new BigDecimal("1e400"), "ten", List.of(5), Map.of("amount", 5));
        for (Object amount : hostile) {
            var reply = user.api().post("/v1/billing/top-ups", Map.of("amount", amount));
            assertThat(reply.status()).as(amount + ": " + reply).isIn(400, 422);
            assertThat(reply.json().get("error")).as(amount.toString()).isNotNull();
        }
        assertThat(user.api().send("POST", "/v1/billing/top-ups", "{\"amount\":".getBytes(StandardCharsets.UTF_8),
                "application/json").status()).isEqualTo(400);
        assertThat(InvokeFixtures.rows("SELECT id FROM billing_top_ups WHERE user_id = ?", user.id())).isEmpty();
        assertThat(balance(user)).isEqualByComparingTo(AtriumServer.SIGNUP_CREDIT);
    }

    @Test
    void whenAnAdministratorCreditsAndRefundsThenEachIsAnEntryWithWhoAndWhy() throws Exception {
        var agent = paidAgent("2.00");
        var user = Accounts.verified("refunded");
        var reply = InvokeFixtures.invoke(user.api(), agent.id(), Map.of("text", "hi"));
        assertThat(reply.status()).isEqualTo(200);
        assertThat(awaitBalance(user, b -> b.compareTo(money("18.00")) == 0)).isEqualByComparingTo("18.00");
        UUID usageId = (UUID) InvokeFixtures.rows("SELECT id FROM agent_usage_records WHERE run_id = ?",
                UUID.fromString(reply.headers().firstValue("Atrium-Run-Id").orElseThrow())).get(0).get("id");
        var admin = staff.api();

        var credit = admin.post("/v1/admin/billing/credits", Map.of("user_id", user.id(), "amount", 5,
                "reason", "Goodwill for the outage"));
        var refund = admin.post("/v1/admin/billing/refunds", Map.of("usage_id", usageId, "reason", "Wrong answer"));
        var again = admin.post("/v1/admin/billing/refunds", Map.of("usage_id", usageId, "reason", "Twice"));

        assertThat(credit.status()).as(credit.toString()).isEqualTo(201);
        assertThat(credit.json().get("actor_id").asText()).isEqualTo(Long.toString(staff.id()));
        assertThat(refund.status()).as(refund.toString()).isEqualTo(201);
        assertThat(again.status()).isEqualTo(409);
        assertThat(balance(user)).isEqualByComparingTo("25.00");
        assertThat(sum("SELECT a.balance FROM billing_accounts a WHERE a.kind = 'DEVELOPER_EARNINGS' AND "
                + "a.owner_id = ?", agent.author().id())).isZero();
        assertThat(user.api().post("/v1/admin/billing/credits", Map.of("user_id", user.id(), "amount", 5,
                "reason", "self-service")).status()).isEqualTo(403);
        assertThat(admin.post("/v1/admin/billing/credits", Map.of("user_id", user.id(), "amount", 5, "reason", ""))
                .status()).isEqualTo(422);
        assertThat(sum("SELECT SUM(amount) FROM journal_lines")).as("the whole ledger balances").isZero();
    }

    @Test
    void whenADeveloperReadsTheMonthThenUsageRevenueAndTheDaysReconciliationAgree() throws Exception {
        var agent = paidAgent("0.50");
        var user = Accounts.verified("month");
        for (int i = 0; i < 2; i++) {
            assertThat(InvokeFixtures.invoke(user.api(), agent.id(), Map.of("text", "n" + i)).status()).isEqualTo(200);
        }
        assertThat(awaitBalance(user, b -> b.compareTo(money("19.00")) == 0)).isEqualByComparingTo("19.00");
        var recorded = (java.sql.Timestamp) InvokeFixtures.rows("SELECT MAX(recorded_at) AS t FROM agent_usage_records "
                + "WHERE user_id = ?", user.id()).get(0).get("t");
        var day = recorded.toInstant().atZone(java.time.ZoneOffset.UTC).toLocalDate();
        String month = java.time.YearMonth.from(day).toString();

        var usage = user.api().get("/v1/me/usage?agent_id=" + agent.id() + "&month=" + month);
        var revenue = agent.author().api().get("/v1/me/revenue?month=" + month);

        assertThat(usage.status()).as(usage.toString()).isEqualTo(200);
        assertThat(usage.json().get("total").asLong()).isEqualTo(2);
        assertThat(usage.json().get("items").get(0).get("price_charged").decimalValue()).isEqualByComparingTo("0.50");
        assertThat(user.api().get("/v1/me/usage?month=2026-13").status()).isEqualTo(422);
        assertThat(revenue.status()).as(revenue.toString()).isEqualTo(200);
        assertThat(revenue.json().get("calls").asLong()).isEqualTo(2);
        assertThat(revenue.json().get("gross").decimalValue()).isEqualByComparingTo("1.00");
        assertThat(revenue.json().get("developer_share").decimalValue()).isEqualByComparingTo("0.70");
        assertThat(revenue.json().get("pending").decimalValue()).isEqualByComparingTo("0.70");
        assertThat(revenue.json().get("agents").get(0).get("agent_id").asText()).isEqualTo(agent.id());
        assertThat(agent.author().api().get("/v1/me/revenue?month=13-2026").status()).isEqualTo(422);

        var admin = staff.api();
        var ours = InvokeFixtures.rows("SELECT id FROM agent_usage_records WHERE user_id = ?", user.id()).stream()
                .map(r -> r.get("id").toString()).toList();
        var report = admin.get("/v1/admin/billing/reconciliation?date=" + day);
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline && report.json().get("unbilled_usage").toString().contains(ours.get(0))) {
            Accounts.sleep(500);
            report = admin.get("/v1/admin/billing/reconciliation?date=" + day);
        }
        var figures = report.json();
        assertThat(report.status()).as(report.toString()).isEqualTo(200);
        // other tests write usage records straight into the database (QualityScoringIT): those are rightly unbilled
        var unbilled = new ArrayList<String>();
        figures.get("unbilled_usage").forEach(u -> unbilled.add(u.asText()));
        assertThat(unbilled).as(report.toString()).doesNotContainAnyElementsOf(ours);
        assertThat(figures.get("usage_records").asLong() - figures.get("usage_entries").asLong())
                .as(report.toString()).isEqualTo(unbilled.size());
        assertThat(figures.get("unbalanced_entries").asLong()).isZero();
        assertThat(figures.get("accounts_off_balance")).isEmpty();
        assertThat(figures.get("accounts_off_held")).isEmpty();
        assertThat(figures.get("agrees").asBoolean()).isEqualTo(unbilled.isEmpty());
        var quiet = admin.get("/v1/admin/billing/reconciliation?date=2001-01-01").json();
        assertThat(quiet.get("agrees").asBoolean()).as(quiet.toString()).isTrue();
        assertThat(quiet.get("usage_records").asLong()).isZero();
        assertThat(admin.get("/v1/admin/billing/reconciliation?date=yesterday").status()).isEqualTo(422);

        var started = admin.post("/admin/batch-jobs/daily-marketplace-report/executions?date=" + day);
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        var end = BatchIT.awaitEnd(admin, started.json().get("href").asText(), Duration.ofSeconds(60));
        assertThat(end.get("status").asText()).as(end.toString()).isEqualTo("COMPLETED");
        var csv = admin.get("/v1/admin/billing/reports/" + day + ".csv");
        assertThat(csv.status()).as(csv.toString()).isEqualTo(200);
        var records = org.apache.commons.csv.CSVFormat.RFC4180.parse(new java.io.StringReader(csv.body()))
                .getRecords();
        var line = records.stream().filter(r -> r.get(0).equals(agent.id())).findFirst().orElseThrow();
        assertThat(line.get(2)).isEqualTo("2");
        assertThat(new BigDecimal(line.get(4))).isEqualByComparingTo("1.00");
        assertThat(new BigDecimal(line.get(5))).isEqualByComparingTo("0.70");
        var total = records.get(records.size() - 1);
        assertThat(total.get(0)).isEqualTo("TOTAL");
        assertThat(new BigDecimal(total.get(4))).as("the report's gross is the reconciled day's charges")
                .isEqualByComparingTo(admin.get("/v1/admin/billing/reconciliation?date=" + day).json()
                        .get("usage_charged").decimalValue());
        assertThat(admin.get("/v1/admin/billing/reports/2001-01-01.csv").status()).isEqualTo(404);
        assertThat(user.api().get("/v1/admin/billing/reconciliation?date=" + day).status()).isEqualTo(403);
    }

    @Test
    void whenADeveloperSetsAPayoutAccountThenTheIbanIsCheckedAndNeverShownWhole() {
        var developer = Accounts.verified("payee");
        var api = developer.api();
        assertThat(api.get("/v1/me/payout-account").status()).isEqualTo(404);

        for (String hostile : List.of("DE88370400440532013000", "DE8937040044053201300", "XX89370400440532013000",
                "DE89370400440532013000<script>", "")) {
            var reply = api.put("/v1/me/payout-account", Map.of("method", "bank_transfer", "holder_name", "Ada",
                    "iban", hostile));
            assertThat(reply.status()).as(hostile + ": " + reply).isEqualTo(422);
        }
        var set = api.put("/v1/me/payout-account", Map.of("method", "bank_transfer", "holder_name", "Ada Lovelace",
                "iban", "DE89 3704 0044 0532 0130 00", "bic", "COBADEFFXXX"));

        assertThat(set.status()).as(set.toString()).isEqualTo(200);
        assertThat(set.body()).doesNotContain("370400440532013000");
        assertThat(set.json().get("iban").asText()).isEqualTo("DE••••••••••••••••3000");
        assertThat(api.get("/v1/me/payout-account").json().get("method").asText()).isEqualTo("bank_transfer");
        assertThat(api.put("/v1/me/payout-account", Map.of("method", "cash", "holder_name", "Ada")).status())
                .isEqualTo(422);
        assertThat(api.put("/v1/me/payout-account", Map.of("method", "processor", "holder_name", "Ada")).status())
                .as("a processor payout needs the Stripe connected account").isEqualTo(422);
        var processor = api.put("/v1/me/payout-account", Map.of("method", "processor", "holder_name", "Ada",
                "connected_account", "acct_1AtriumItPayee0001"));
        assertThat(processor.status()).isEqualTo(200);
        assertThat(processor.json().get("connected_account").asText()).isEqualTo("acct_1AtriumItPayee0001");
        assertThat(processor.json().path("iban").isMissingNode() || processor.json().path("iban").isNull()).isTrue();
    }

    private static String runPayout(String month) {
        var started = staff.api().post("/v1/admin/billing/payout-runs", Map.of("month", month));
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        var end = BatchIT.awaitEnd(staff.api(), started.json().get("href").asText(), Duration.ofSeconds(60));
        assertThat(end.get("status").asText()).as(end.toString()).isEqualTo("COMPLETED");
        return end.get("exit_status").asText();
    }

    @Test
    void whenAMonthIsSettledThenPayoutsAboveTheMinimumAreFiledOnceAndTheRestIsCarried() throws Exception {
        var big = paidAgent("100.00");
        var small = paidAgent("10.00");
        var user = Accounts.verified("settled");
        assertThat(staff.api().post("/v1/admin/billing/credits", Map.of("user_id", user.id(), "amount", 200,
                "reason", "Payout test")).status()).isEqualTo(201);
        assertThat(InvokeFixtures.invoke(user.api(), big.id(), Map.of("text", "x")).status()).isEqualTo(200);
        assertThat(InvokeFixtures.invoke(user.api(), small.id(), Map.of("text", "x")).status()).isEqualTo(200);
        assertThat(awaitBalance(user, b -> b.compareTo(money("110.00")) == 0)).isEqualByComparingTo("110.00");
        assertThat(big.author().api().put("/v1/me/payout-account", Map.of("method", "bank_transfer",
                "holder_name", "Big Earner", "iban", "GB82 WEST 1234 5698 7654 32", "bic", "NWBKGB2L")).status())
                .isEqualTo(200);
        assertThat(small.author().api().put("/v1/me/payout-account", Map.of("method", "bank_transfer",
                "holder_name", "Small Earner", "iban", "NL91ABNA0417164300")).status()).isEqualTo(200);
        var recorded = (java.sql.Timestamp) InvokeFixtures.rows("SELECT MAX(recorded_at) AS t FROM agent_usage_records "
                + "WHERE user_id = ?", user.id()).get(0).get("t");
        String month = java.time.YearMonth.from(recorded.toInstant().atZone(java.time.ZoneOffset.UTC)).toString();

        String exit = runPayout(month);
        var run = staff.api().get("/v1/admin/billing/payout-runs/" + month).json();

        assertThat(exit).startsWith("MONTH=" + month + ",TRANSFERS=");
        var mine = new java.util.HashMap<String, com.fasterxml.jackson.databind.JsonNode>();
        run.get("payouts").forEach(p -> mine.put(p.get("developer_id").asText(), p));
        var paid = mine.get(Long.toString(big.author().id()));
        var carried = mine.get(Long.toString(small.author().id()));
        assertThat(paid.get("status").asText()).isEqualTo("filed");
        assertThat(paid.get("amount").decimalValue()).isEqualByComparingTo("70.00");
        assertThat(paid.get("iban").asText()).isEqualTo("GB••••••••••••••••5432");
        assertThat(carried.get("status").asText()).isEqualTo("carried");
        assertThat(carried.get("amount").decimalValue()).isEqualByComparingTo("7.00");
        var file = staff.api().get("/v1/admin/billing/payout-runs/" + month + "/file");
        assertThat(file.status()).isEqualTo(200);
        validatePain001(file.body().getBytes(StandardCharsets.UTF_8));
        assertThat(file.body()).contains("<IBAN>GB82WEST12345698765432</IBAN>")
                .contains("<InstdAmt Ccy=\"USD\">70.00</InstdAmt>").doesNotContain("NL91ABNA0417164300");

        runPayout(month);

        assertThat(InvokeFixtures.rows("SELECT id FROM journal_entries WHERE reference = ?",
                "payout:" + big.author().id() + ":" + month)).hasSize(1);
        assertThat(InvokeFixtures.rows("SELECT id FROM billing_payouts WHERE developer_id = ?",
                big.author().id())).hasSize(1);
        var revenue = big.author().api().get("/v1/me/revenue?month=" + month).json();
        assertThat(revenue.get("paid_out").decimalValue()).isEqualByComparingTo("70.00");
        assertThat(revenue.get("pending").decimalValue()).isEqualByComparingTo("0");
        assertThat(small.author().api().get("/v1/me/revenue?month=" + month).json().get("pending").decimalValue())
                .isEqualByComparingTo("7.00");
        assertThat(staff.api().post("/v1/admin/billing/payout-runs", Map.of("month", "2026-1")).status())
                .isEqualTo(422);
        assertThat(user.api().get("/v1/admin/billing/payout-runs/" + month).status()).isEqualTo(403);
    }

    static void validatePain001(byte[] xml) throws Exception {
        var factory = javax.xml.validation.SchemaFactory.newInstance(javax.xml.XMLConstants.W3C_XML_SCHEMA_NS_URI);
        try (var xsd = BillingIT.class.getClassLoader().getResourceAsStream("pain.001.001.09.xsd")) {
            assertThat(xsd).isNotNull();
            factory.newSchema(new javax.xml.transform.stream.StreamSource(xsd)).newValidator()
                    .validate(new javax.xml.transform.stream.StreamSource(new java.io.ByteArrayInputStream(xml)));
        }
    }

    @Test
    void whenASubscriberCallsThenTheMonthsFirstCallPaysTheFeeAndTheRestAreCappedPerSecond() throws Exception {
        ObjectNode card = InvokeFixtures.pythonCard("subscribed");
        card.putObject("pricing").put("model", "subscription").put("price_usd", new BigDecimal("3.00"));
        var agent = InvokeFixtures.listed(staff, card, InvokeFixtures.PYTHON_ECHO);
        var user = Accounts.verified("subscriber");

        for (int i = 0; i < 3; i++) {
            var reply = InvokeFixtures.invoke(user.api(), agent.id(), Map.of("text", "s" + i));
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            // one call a second, under the cap
            Accounts.sleep(1100);
        }
        assertThat(awaitBalance(user, b -> b.compareTo(money("17.00")) == 0)).isEqualByComparingTo("17.00");
        assertThat(InvokeFixtures.rows("SELECT price_charged FROM agent_usage_records WHERE user_id = ? ORDER BY "
                + "recorded_at", user.id())).extracting(r -> ((BigDecimal) r.get("price_charged")).stripTrailingZeros()
                .toPlainString()).containsExactly("3", "0", "0");

        var pool = Executors.newFixedThreadPool(8);
        var calls = new ArrayList<Callable<Reply>>();
        for (int i = 0; i < 8; i++) {
            calls.add(() -> InvokeFixtures.invoke(user.api(), agent.id(), Map.of("text", "burst")));
        }
        var capped = new ArrayList<Reply>();
        try {
            for (var f : pool.invokeAll(calls)) {
                if (f.get().status() == 429) {
                    capped.add(f.get());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(capped).as("at most " + AtriumServer.SUBSCRIPTION_PER_SECOND + " a second").isNotEmpty()
                .allSatisfy(r -> {
                    assertThat(r.json().get("error").get("code").asInt()).isEqualTo(42900);
                    assertThat(r.header("Retry-After")).isNotNull();
                });
        assertThat(balance(user)).as("no second fee this month").isEqualByComparingTo("17.00");
    }
}
