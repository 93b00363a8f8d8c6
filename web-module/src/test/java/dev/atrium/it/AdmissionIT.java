package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.function.Predicate;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import redis.clients.jedis.Jedis;

/**
 * A call's price is decided once, at admission, and held (issue "Money that cannot be created"), played as an
 * attacker would: callers racing for a freemium agent's one free call, a subscription call across the month's end,
 * an agent whose dependencies charge the caller, a burst at the end of the free tier, and every refusal after a hold.
 * After each, no user's balance is below zero, no hold is left open, and reconciliation agrees.
 */
@ExtendWith(AtriumServer.class)
class AdmissionIT {

    /**
     * Echoes {@code text}; sleeps {@code sleep} seconds first; with {@code target} and {@code times} calls that
     * agent so many times through the invoke gateway and answers each call's status and business code; exits 3
     * (a failed run) when {@code text} is "fail".
     */
    static final byte[] AGENT = MarketplaceFixtures.tarGz(tar -> MarketplaceFixtures.file(tar, "main.py", """
            import json, os, sys, time, urllib.error, urllib.request
            data = json.load(sys.stdin)
            time.sleep(data.get("sleep", 0))
            if data.get("text") == "fail":
                sys.exit(3)
            out = {"result": data.get("text", "")}
            calls = []
            for i in range(data.get("times", 0)):
                request = urllib.request.Request(os.environ["ATRIUM_INVOKE_URL"] + "/" + data["target"] + "/invoke",
                                                 data=json.dumps({"text": "dep"}).encode(), method="POST", headers={
                                                     "Authorization": "Bearer " + os.environ["ATRIUM_INVOKE_TOKEN"],
                                                     "Content-Type": "application/json"})
                try:
                    with urllib.request.urlopen(request, timeout=25) as r:
                        r.read()
                        calls.append({"status": r.status, "price": r.headers.get("Atrium-Price-Usd")})
                except urllib.error.HTTPError as e:
                    calls.append({"status": e.code, "code": json.loads(e.read())["error"]["code"]})
            out["calls"] = calls
            print(json.dumps({"output": out, "usage": {"tokens_input": 1, "tokens_output": 1}}))
            """));

    private static Accounts.Account staff;

    @BeforeAll
    static void staff() {
        staff = MarketplaceFixtures.staff();
    }

    /** A card for {@link #AGENT} with the pricing given and, optionally, agents it depends on. */
    static ObjectNode card(String base, String model, String price, int freeQuota, String... dependencies) {
        ObjectNode card = MarketplaceFixtures.card(MarketplaceFixtures.unique(base));
        var properties = (ObjectNode) card.get("input_schema").get("properties");
        properties.putObject("sleep").put("type", "integer");
        properties.putObject("target").put("type", "string");
        properties.putObject("times").put("type", "integer");
        card.putObject("pricing").put("model", model).put("price_usd", new BigDecimal(price))
                .put("free_quota", freeQuota);
        if (dependencies.length > 0) {
            var agents = card.putObject("dependencies").putArray("agents");
            for (String d : dependencies) {
                agents.addObject().put("name", d).put("version", ">=1.0.0");
            }
        }
        return card;
    }

    private static InvokeFixtures.Listed listed(ObjectNode card) {
        return InvokeFixtures.listed(staff, card, AGENT);
    }

    private static BigDecimal money(String amount) {
        return new BigDecimal(amount).setScale(6);
    }

    private static BigDecimal balance(Api api) {
        var reply = api.get("/v1/me/balance");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json().get("balance").decimalValue();
    }

    /** Waits for billing to settle every hold of the user, then answers the balance. */
    private static BigDecimal settled(Accounts.Account user, Api api) throws Exception {
        // a balance is opened (with its sign-up credit) at its first use: a caller refused everything has none yet
        balance(api);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline && openHolds(user) > 0) {
            Accounts.sleep(200);
        }
        assertThat(openHolds(user)).as("every hold settled or released").isZero();
        var rows = InvokeFixtures.rows("SELECT balance, held FROM billing_accounts WHERE kind = 'USER_BALANCE' "
                + "AND owner_id = ?", user.id());
        assertThat(((BigDecimal) rows.get(0).get("held"))).as("nothing left held").isZero();
        BigDecimal balance = ((BigDecimal) rows.get(0).get("balance")).setScale(6);
        assertThat(balance.signum()).as("a balance never below zero").isGreaterThanOrEqualTo(0);
        return balance;
    }

    private static long openHolds(Accounts.Account user) throws Exception {
        return ((Number) InvokeFixtures.rows("SELECT COUNT(*) AS n FROM billing_holds h JOIN billing_accounts a ON "
                + "a.id = h.account_id WHERE a.owner_id = ? AND a.kind = 'USER_BALANCE' AND h.status = 'OPEN'",
                user.id()).get(0).get("n")).longValue();
    }

    private static BigDecimal earnings(Accounts.Account developer) throws Exception {
        var rows = InvokeFixtures.rows("SELECT balance FROM billing_accounts WHERE kind = 'DEVELOPER_EARNINGS' "
                + "AND owner_id = ?", developer.id());
        return rows.isEmpty() ? money("0") : ((BigDecimal) rows.get(0).get("balance")).setScale(6);
    }

    private static JsonNode reconciliation() {
        var month = YearMonth.now(ZoneOffset.UTC);
        var reply = staff.api().get("/v1/admin/billing/reconciliation?month=" + month);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json();
    }

    private static void assertNoNegativeBalances() {
        var report = reconciliation();
        assertThat(report.get("negative_balances")).as(report.toString()).isEmpty();
        assertThat(report.get("charges_above_hold")).as(report.toString()).isEmpty();
    }

    private static List<Reply> concurrently(int n, Callable<Reply> call) throws Exception {
        var start = new CountDownLatch(1);
        var pool = Executors.newFixedThreadPool(n);
        try {
            var futures = new ArrayList<java.util.concurrent.Future<Reply>>();
            for (int i = 0; i < n; i++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return call.call();
                }));
            }
            start.countDown();
            var replies = new ArrayList<Reply>();
            for (var f : futures) {
                replies.add(f.get());
            }
            return replies;
        } finally {
            pool.shutdownNow();
        }
    }

    private static long count(List<Reply> replies, Predicate<Reply> which) {
        return replies.stream().filter(which).count();
    }

    private static boolean refusedForMoney(Reply r) {
        return r.status() == 402 && r.body().contains("30001");
    }

    @Test
    void whenTwentyFourCallersRaceForAFreemiumAgentsOneFreeCallThenOneIsServedFreeAndNoneUnpaid() throws Exception {
        var agent = listed(card("freemium-race", "freemium", "100", 1));
        var user = Accounts.verified("freemium-racer");
        var api = InvokeFixtures.withApiKey(user);

        var replies = concurrently(24, () -> InvokeFixtures.invoke(api, agent.id(), Map.of("text", "hi")));

        assertThat(count(replies, r -> r.status() == 200)).as(replies.toString()).isEqualTo(1);
        assertThat(count(replies, AdmissionIT::refusedForMoney)).as(replies.toString()).isEqualTo(23);
        var served = replies.stream().filter(r -> r.status() == 200).findFirst().orElseThrow();
        assertThat(served.headers().firstValue("Atrium-Price-Usd")).contains("0.000000");
        assertThat(settled(user, api)).isEqualByComparingTo(AtriumServer.SIGNUP_CREDIT);
        assertThat(earnings(agent.author())).isZero();
        assertNoNegativeBalances();
    }

    @Test
    void whenASubscriptionCallStartsBeforeTheMonthEndsAndIsRecordedAfterThenTheAdmittedMonthPays() throws Exception {
        var agent = listed(card("subscription-edge", "subscription", "5", 0));
        var user = Accounts.verified("subscriber");
        var api = InvokeFixtures.withApiKey(user);
        try (var clock = ServerClock.borrowed()) {
            var first = InvokeFixtures.invoke(api, agent.id(), Map.of("text", "this month"));
            assertThat(first.headers().firstValue("Atrium-Price-Usd")).as(first.toString()).contains("5.000000");
            var now = clock.now();
            var monthEnd = YearMonth.from(now.atZone(ZoneOffset.UTC)).plusMonths(1).atDay(1)
                    .atStartOfDay(ZoneOffset.UTC).toInstant();
            clock.advance(Duration.between(now, monthEnd).minusSeconds(2));

            var acrossMidnight = InvokeFixtures.invoke(api, agent.id(), Map.of("text", "late", "sleep", 4));

            assertThat(acrossMidnight.status()).as(acrossMidnight.toString()).isEqualTo(200);
            assertThat(acrossMidnight.headers().firstValue("Atrium-Price-Usd")).as("the month it was admitted in is "
                    + "paid").contains("0.000000");
            assertThat(clock.now()).isAfter(monthEnd);
            var nextMonth = InvokeFixtures.invoke(api, agent.id(), Map.of("text", "next month"));
            assertThat(nextMonth.headers().firstValue("Atrium-Price-Usd")).as(nextMonth.toString())
                    .contains("5.000000");
            assertThat(settled(user, api)).isEqualByComparingTo(new BigDecimal(AtriumServer.SIGNUP_CREDIT)
                    .subtract(BigDecimal.TEN));
        }
    }

    @Test
    void whenAFreeAgentsDependencyChargesThenTheCallerAgreesFirstAndSeesTheWholePrice() throws Exception {
        var paid = listed(card("dep-paid", "per_call", "10", 0));
        var caller = listed(card("dep-caller", "per_call", "0", 0, nameOf(paid)));
        var user = Accounts.verified("dep-payer");
        var api = InvokeFixtures.withApiKey(user);

        var unagreed = InvokeFixtures.invoke(api, caller.id(), Map.of("text", "x", "target", nameOf(paid),
                "times", 10));

        assertThat(unagreed.status()).as(unagreed.toString()).isEqualTo(200);
        assertThat(unagreed.json().get("calls")).hasSize(10).allSatisfy(c -> {
            assertThat(c.get("status").asInt()).isEqualTo(402);
            assertThat(c.get("code").asInt()).isEqualTo(30001);
        });
        assertThat(unagreed.headers().firstValue("Atrium-Price-Usd")).contains("0.000000");
        assertThat(settled(user, api)).isEqualByComparingTo(AtriumServer.SIGNUP_CREDIT);

        var agreed = api.header("Atrium-Max-Price-Usd", "25").post("/v1/agents/" + caller.id() + "/invoke",
                Map.of("text", "x", "target", nameOf(paid), "times", 10));

        assertThat(agreed.status()).as(agreed.toString()).isEqualTo(200);
        assertThat(agreed.json().get("calls")).extracting(c -> c.get("status").asInt())
                .containsExactly(200, 200, 402, 402, 402, 402, 402, 402, 402, 402);
        assertThat(agreed.headers().firstValue("Atrium-Price-Usd")).as("the whole invocation")
                .contains("20.000000");
        assertThat(settled(user, api)).isEqualByComparingTo("0");
        var run = user.api().get("/v1/runs/" + agreed.headers().firstValue("Atrium-Run-Id").orElseThrow());
        assertThat(run.status()).as(run.toString()).isEqualTo(200);
        assertThat(run.json().get("total_price_usd").decimalValue()).isEqualByComparingTo("20");
        assertThat(run.json().get("price_usd").decimalValue()).isZero();
        assertThat(run.json().get("dependency_calls")).hasSize(2).allSatisfy(c -> {
            assertThat(c.get("agent_id").asText()).isEqualTo(paid.id());
            assertThat(c.get("price_usd").decimalValue()).isEqualByComparingTo("10");
        });
        assertThat(run.json().get("dependency_calls_refused").asInt()).isEqualTo(8);
        var shown = user.api().get("/v1/agents/" + caller.id());
        assertThat(shown.json().get("dependencies")).singleElement().satisfies(d -> {
            assertThat(d.get("name").asText()).isEqualTo(nameOf(paid));
            assertThat(d.get("agent_id").asText()).isEqualTo(paid.id());
            assertThat(d.get("pricing").get("price_usd").decimalValue()).isEqualByComparingTo("10");
        });
        assertNoNegativeBalances();
    }

    @Test
    void whenADependencyIsFreemiumAndTheCallerHasLittleThenOnlyTheFreeCallRunsAndNothingGoesNegative()
            throws Exception {
        var freemium = listed(card("dep-freemium", "freemium", "10000", 1));
        var caller = listed(card("dep-free-caller", "per_call", "0", 0, nameOf(freemium)));
        var user = Accounts.verified("dep-poor");
        var api = InvokeFixtures.withApiKey(user);

        var reply = api.header("Atrium-Max-Price-Usd", "1000000").post("/v1/agents/" + caller.id() + "/invoke",
                Map.of("text", "x", "target", nameOf(freemium), "times", 10));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("calls")).extracting(c -> c.get("status").asInt())
                .containsExactly(200, 402, 402, 402, 402, 402, 402, 402, 402, 402);
        assertThat(reply.headers().firstValue("Atrium-Price-Usd")).contains("0.000000");
        assertThat(settled(user, api)).isEqualByComparingTo(AtriumServer.SIGNUP_CREDIT);
        assertThat(earnings(freemium.author())).isZero();
        assertNoNegativeBalances();
    }

    @Test
    void whenABurstMeetsTheFreeTiersLastCallsThenTheRefusedCallsReleaseTheirHolds() throws Exception {
        var agent = listed(card("burst", "per_call", "0.5", 0));
        var user = Accounts.verified("burst");
        var api = InvokeFixtures.withApiKey(user);
        String month = YearMonth.now(ZoneOffset.UTC).toString();
        try (var redis = new Jedis(java.net.URI.create(AtriumServer.get().redisUrl()))) {
            redis.set("market:free:calls:" + user.id() + ":" + month, "96");
        }

        var replies = concurrently(10, () -> InvokeFixtures.invoke(api, agent.id(), Map.of("text", "hi")));

        // the user's cap on runs at once may refuse some (503), which gives their counted call back
        long served = count(replies, r -> r.status() == 200);
        assertThat(served).as(replies.toString()).isBetween(1L, 4L);
        assertThat(count(replies, r -> r.status() == 402 && r.body().contains("40200") || r.status() == 503))
                .as(replies.toString()).isEqualTo(10 - served);
        assertThat(settled(user, api)).isEqualByComparingTo(new BigDecimal(AtriumServer.SIGNUP_CREDIT)
                .subtract(new BigDecimal("0.5").multiply(BigDecimal.valueOf(served))));
    }

    @Test
    void whenACallIsRefusedAtAnyStepAfterAdmissionThenNothingStaysHeldOrTaken() throws Exception {
        var freemium = listed(card("refusals", "freemium", "3", 1));
        var dear = listed(card("dear", "per_call", "25", 0));
        ObjectNode imageCard = card("image-only", "freemium", "3", 1);
        ((ObjectNode) imageCard.get("runtime")).put("docker_image", "registry.example/agents/"
                + imageCard.get("name").asText() + ":1.0.0");
        var submitted = MarketplaceFixtures.submit(Accounts.verified("image-dev").api(), imageCard, null);
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        String image = submitted.json().get("agent_id").asText();
        MarketplaceFixtures.approve(staff, image);
        var user = Accounts.verified("refused");
        var api = InvokeFixtures.withApiKey(user);

        record Branch(String name, Callable<Reply> call, int status, String code) {
        }
        var branches = List.of(
                new Branch("input invalid", () -> InvokeFixtures.invoke(api, freemium.id(), Map.of("nope", 1)),
                        422, "40001"),
                new Branch("a capped call of an agent that cannot run here", () -> api
                        .header("Atrium-Max-Price-Usd", "0").post("/v1/agents/" + image + "/invoke",
                                Map.of("text", "hi")), 503, "50300"),
                new Branch("cap header malformed", () -> api.header("Atrium-Max-Price-Usd", "1e3")
                        .post("/v1/agents/" + freemium.id() + "/invoke", Map.of("text", "hi")), 422, "40001"),
                new Branch("the agent cannot run here", () -> InvokeFixtures.invoke(api, image,
                        Map.of("text", "hi")), 503, "50300"),
                new Branch("the hold does not fit the balance", () -> InvokeFixtures.invoke(api, dear.id(),
                        Map.of("text", "hi")), 402, "30001"),
                new Branch("the run fails after its free call was taken", () -> InvokeFixtures.invoke(api,
                        freemium.id(), Map.of("text", "fail")), 200, "\"error\""));
        for (var branch : branches) {
            var reply = branch.call().call();
            assertThat(reply.status()).as(branch.name() + ": " + reply).isEqualTo(branch.status());
            assertThat(reply.body()).as(branch.name()).contains(branch.code());
            assertThat(openHolds(user)).as(branch.name()).isZero();
            assertThat(InvokeFixtures.rows("SELECT used FROM marketplace_free_slots WHERE user_id = ? AND used > 0",
                    user.id())).as(branch.name() + ": the free call is given back").isEmpty();
        }
        var free = InvokeFixtures.invoke(api, freemium.id(), Map.of("text", "hi"));
        assertThat(free.headers().firstValue("Atrium-Price-Usd")).as(free.toString()).contains("0.000000");
        var capped = api.header("Atrium-Max-Price-Usd", "2.99").post("/v1/agents/" + freemium.id() + "/invoke",
                Map.of("text", "hi"));
        assertThat(refusedForMoney(capped)).as(capped.toString()).isTrue();
        assertThat(openHolds(user)).isZero();
        assertThat(settled(user, api)).isEqualByComparingTo(AtriumServer.SIGNUP_CREDIT);
    }

    /**
     * The slot branch: one user's three concurrent calls meet the per-caller cap (half of the test server's 4 slots),
     * so exactly one is refused at once with 503, after its hold was placed; that hold is released, the refused call
     * is recorded nowhere, and the two served calls are all that is charged.
     */
    @Test
    void whenACallIsRefusedForTheCallersSlotCapAfterItsHoldThenOnlyTheServedCallsAreCharged() throws Exception {
        var slow = listed(card("slow", "per_call", "0.5", 0));
        var user = Accounts.verified("slot-capped");
        var api = InvokeFixtures.withApiKey(user);

        var replies = concurrently(3, () -> InvokeFixtures.invoke(api, slow.id(), Map.of("text", "hi", "sleep", 4)));

        assertThat(count(replies, r -> r.status() == 503)).as(replies.toString()).isEqualTo(1);
        assertThat(count(replies, r -> r.status() == 200)).as(replies.toString()).isEqualTo(2);
        assertThat(settled(user, api)).isEqualByComparingTo(new BigDecimal(AtriumServer.SIGNUP_CREDIT)
                .subtract(new BigDecimal("1.0")));
        assertThat(InvokeFixtures.rows("SELECT id FROM agent_usage_records WHERE user_id = ?", user.id()))
                .as("only the served calls are recorded").hasSize(2);
        assertNoNegativeBalances();
    }

    private static String nameOf(InvokeFixtures.Listed agent) {
        return staff.api().get("/v1/agents/" + agent.id()).json().get("name").asText();
    }
}
