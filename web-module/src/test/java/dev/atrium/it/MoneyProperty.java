package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Money that cannot be created, as a property through the running server: a seeded random mix of concurrent calls of
 * the four pricing models, an agent whose dependencies charge, caps, invalid inputs and refunds, by callers with
 * little money, each call sent to one of the given instances (all on one database, key-value store and broker).
 * Afterwards every user balance is at or above zero, every hold of the run's users is settled or released, every
 * entry balances, each usage entry gives the developer exactly 70 % (rounded half even) of what the caller was
 * charged, and each caller's balance is their credit less their charges plus their refunds.
 */
public final class MoneyProperty {

    private MoneyProperty() {
    }

    /** Runs {@code calls} random calls from {@code seed}, spread over the instances at {@code bases}. */
    public static void check(List<String> bases, long seed, int calls) throws Exception {
        var staff = MarketplaceFixtures.staff();
        var random = new Random(seed);
        var perCall = AdmissionIT.card("prop-call", "per_call", "1.25", 0);
        var perToken = AdmissionIT.card("prop-token", "per_token", "0.01", 0);
        var subscription = AdmissionIT.card("prop-sub", "subscription", "4", 0);
        var freemium = AdmissionIT.card("prop-free", "freemium", "2", 2);
        var agents = new ArrayList<String>();
        for (var card : List.of(perCall, perToken, subscription, freemium)) {
            agents.add(InvokeFixtures.listed(staff, card, AdmissionIT.AGENT).id());
        }
        String perCallName = perCall.get("name").asText();
        var caller = InvokeFixtures.listed(staff, AdmissionIT.card("prop-caller", "per_call", "0.5", 0, perCallName),
                AdmissionIT.AGENT).id();
        var users = new ArrayList<Accounts.Account>();
        var apis = new ArrayList<Api>();
        for (int i = 0; i < 6; i++) {
            var user = Accounts.verified("prop-user");
            users.add(user);
            apis.add(InvokeFixtures.withApiKey(user));
        }
        var runs = new ConcurrentLinkedQueue<String>();
        var served = new java.util.concurrent.ConcurrentHashMap<String, Integer>();
        var pool = Executors.newFixedThreadPool(8);
        var replies = new ArrayList<java.util.concurrent.Future<?>>();
        for (int i = 0; i < calls; i++) {
            String base = bases.get(random.nextInt(bases.size()));
            var api = apis.get(random.nextInt(apis.size())).at(base);
            int kind = random.nextInt(10);
            String agent = kind < 2 ? caller : agents.get(random.nextInt(agents.size()));
            Map<String, Object> input = kind == 9 ? Map.of("nope", true)
                    : kind < 2 ? Map.of("text", "x", "target", perCallName, "times", 1 + random.nextInt(4))
                    : Map.of("text", "x".repeat(random.nextInt(3000)));
            String cap = random.nextInt(4) == 0 ? BigDecimal.valueOf(random.nextInt(600), 2).toPlainString() : null;
            replies.add(pool.submit(() -> {
                var reply = (cap == null ? api : api.header("Atrium-Max-Price-Usd", cap))
                        .post("/v1/agents/" + agent + "/invoke", input);
                // 503: a user's third call at once meets the per-caller slot cap, refused like any other branch
                assertThat(reply.status()).as(reply.toString()).isIn(200, 402, 422, 429, 503);
                reply.headers().firstValue("Atrium-Run-Id").ifPresent(runs::add);
                if (reply.status() == 200) {
                    served.merge(base, 1, Integer::sum);
                }
            }));
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(5, TimeUnit.MINUTES)).isTrue();
        for (var reply : replies) {
            reply.get();
        }
        assertThat(served.keySet()).as("every instance served calls").containsExactlyInAnyOrderElementsOf(bases);
        var runIds = new ArrayList<>(runs);
        Collections.shuffle(runIds, random);
        for (String run : runIds.subList(0, Math.min(5, runIds.size()))) {
            var usage = InvokeFixtures.rows("SELECT id FROM agent_usage_records WHERE run_id = ? AND price_charged > 0",
                    UUID.fromString(run));
            if (!usage.isEmpty()) {
                awaitBilled((UUID) usage.get(0).get("id"));
                var admin = staff.api().at(bases.get(random.nextInt(bases.size())));
                var refund = admin.post("/v1/admin/billing/refunds", Map.of("usage_id", usage.get(0).get("id"),
                        "reason", "property run " + seed));
                assertThat(refund.status()).as(refund.toString()).isEqualTo(201);
            }
        }
        // a balance is opened at its first use: one whose calls were all refused has none yet
        apis.forEach(api -> assertThat(api.get("/v1/me/balance").status()).isEqualTo(200));
        var ids = users.stream().map(Accounts.Account::id).toList().toArray();
        String in = "(" + String.join(",", Collections.nCopies(ids.length, "?")) + ")";
        String round = "seed " + seed + " over " + bases.size() + " instance(s)";
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline && !InvokeFixtures.rows("SELECT h.id FROM billing_holds h JOIN "
                + "billing_accounts a ON a.id = h.account_id WHERE h.status = 'OPEN' AND a.owner_id IN " + in, ids)
                .isEmpty()) {
            Accounts.sleep(250);
        }
        assertThat(InvokeFixtures.rows("SELECT h.id FROM billing_holds h JOIN billing_accounts a ON a.id = "
                + "h.account_id WHERE h.status = 'OPEN' AND a.owner_id IN " + in, ids)).as(round).isEmpty();
        assertThat(InvokeFixtures.rows("SELECT owner_id FROM billing_accounts WHERE kind = 'USER_BALANCE' AND "
                + "balance < 0")).as(round + ": balances at or above zero").isEmpty();
        assertThat(InvokeFixtures.rows("SELECT owner_id FROM billing_accounts WHERE kind = 'USER_BALANCE' AND "
                + "held <> 0 AND owner_id IN " + in, ids)).as(round + ": nothing held").isEmpty();
        assertThat(InvokeFixtures.rows("SELECT entry_id FROM journal_lines GROUP BY entry_id HAVING SUM(amount) <> 0"))
                .as(round + ": every entry balances").isEmpty();
        for (var entry : InvokeFixtures.rows("SELECT e.id, "
                + "SUM(CASE WHEN a.kind = 'USER_BALANCE' THEN -l.amount ELSE 0 END) AS charged, "
                + "SUM(CASE WHEN a.kind = 'DEVELOPER_EARNINGS' THEN l.amount ELSE 0 END) AS developer "
                + "FROM journal_entries e JOIN journal_lines l ON l.entry_id = e.id JOIN billing_accounts a ON "
                + "a.id = l.account_id WHERE e.kind = 'USAGE' AND e.id IN (SELECT u.entry_id FROM journal_lines u "
                + "JOIN billing_accounts b ON b.id = u.account_id WHERE b.kind = 'USER_BALANCE' AND b.owner_id IN "
                + in + ") GROUP BY e.id", ids)) {
            var charged = (BigDecimal) entry.get("charged");
            assertThat((BigDecimal) entry.get("developer")).as(round + ": 70 % of " + charged)
                    .isEqualByComparingTo(charged.multiply(new BigDecimal("0.70")).setScale(6,
                            RoundingMode.HALF_EVEN));
        }
        for (var user : users) {
            var charged = InvokeFixtures.rows("SELECT COALESCE(SUM(price_charged), 0) AS p FROM agent_usage_records "
                    + "WHERE user_id = ?", user.id()).get(0).get("p");
            var refunded = InvokeFixtures.rows("SELECT COALESCE(SUM(l.amount), 0) AS r FROM journal_lines l JOIN "
                    + "journal_entries e ON e.id = l.entry_id JOIN billing_accounts a ON a.id = l.account_id WHERE "
                    + "e.kind = 'REFUND' AND a.kind = 'USER_BALANCE' AND a.owner_id = ?", user.id()).get(0).get("r");
            var balance = InvokeFixtures.rows("SELECT balance FROM billing_accounts WHERE kind = 'USER_BALANCE' "
                    + "AND owner_id = ?", user.id()).get(0).get("balance");
            assertThat((BigDecimal) balance).as(round + ": user " + user.id())
                    .isEqualByComparingTo(new BigDecimal(AtriumServer.SIGNUP_CREDIT).subtract((BigDecimal) charged)
                            .add((BigDecimal) refunded));
        }
        var report = staff.api().get("/v1/admin/billing/reconciliation?month="
                + java.time.YearMonth.now(java.time.ZoneOffset.UTC));
        assertThat(report.json().get("negative_balances")).as(report.toString()).isEmpty();
        assertThat(report.json().get("charges_above_hold")).as(report.toString()).isEmpty();
        assertThat(report.json().get("accounts_off_balance")).as(report.toString()).isEmpty();
        assertThat(report.json().get("accounts_off_held")).as(report.toString()).isEmpty();
    
    }

    private static void awaitBilled(UUID usageId) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline && InvokeFixtures.rows("SELECT id FROM journal_entries WHERE reference = ?",
                "usage:" + usageId).isEmpty()) {
            Accounts.sleep(200);
        }
    }
}
