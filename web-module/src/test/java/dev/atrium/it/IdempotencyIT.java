package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code Idempotency-Key} on POST: one execution per caller and key, replayed answers. */
@ExtendWith(AtriumServer.class)
class IdempotencyIT {

    private static long countByAuthor(Accounts.Account account) {
        return account.api().get("/api/v1/articles?author_id=" + account.id()).json().get("total").asLong();
    }

    @Test
    void whenRepeatedWithTheSameKeyThenSameAnswerWithoutRunningAgain() {
        var account = Accounts.verified("idem");
        var api = account.api().header("Idempotency-Key", UUID.randomUUID().toString());
        var body = Map.of("title", "Once only", "body", "Body");
        var first = api.post("/api/v1/articles", body);
        var second = api.post("/api/v1/articles", body);
        assertThat(first.status()).isEqualTo(201);
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.body()).isEqualTo(first.body());
        assertThat(second.header("Location")).isEqualTo(first.header("Location"));
        assertThat(second.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(first.header("Idempotent-Replayed")).isNull();
        assertThat(countByAuthor(account)).isEqualTo(1);
    }

    @Test
    void whenTwoRequestsWithOneKeyRunAtOnceThenTheWorkIsDoneOnce() throws Exception {
        var account = Accounts.verified("race");
        var api = account.api().header("Idempotency-Key", UUID.randomUUID().toString());
        var body = Map.of("title", "Raced", "body", "Body");
        var pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Reply>> replies = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                replies.add(pool.submit((Callable<Reply>) () -> api.post("/api/v1/articles", body)));
            }
            var bodies = new ArrayList<String>();
            for (var reply : replies) {
                assertThat(reply.get().status()).isEqualTo(201);
                bodies.add(reply.get().body());
            }
            assertThat(bodies).allMatch(b -> b.equals(bodies.get(0)));
        } finally {
            pool.shutdownNow();
        }
        assertThat(countByAuthor(account)).isEqualTo(1);
    }

    @Test
    void whenTheKeyIsReusedForAnotherRequestThen422() {
        var account = Accounts.verified("reuse");
        var api = account.api().header("Idempotency-Key", UUID.randomUUID().toString());
        assertThat(api.post("/api/v1/articles", Map.of("title", "A", "body", "a")).status()).isEqualTo(201);
        var other = api.post("/api/v1/articles", Map.of("title", "B", "body", "b"));
        assertThat(other.status()).isEqualTo(422);
        assertThat(countByAuthor(account)).isEqualTo(1);
    }

    @Test
    void whenAnotherCallerUsesTheSameKeyThenItRunsForThatCaller() {
        String key = UUID.randomUUID().toString();
        var one = Accounts.verified("one");
        var two = Accounts.verified("two");
        var body = Map.of("title", "Shared key", "body", "Body");
        assertThat(one.api().header("Idempotency-Key", key).post("/api/v1/articles", body).status()).isEqualTo(201);
        var reply = two.api().header("Idempotency-Key", key).post("/api/v1/articles", body);
        assertThat(reply.status()).isEqualTo(201);
        assertThat(reply.header("Idempotent-Replayed")).isNull();
        assertThat(countByAuthor(two)).isEqualTo(1);
    }

    @Test
    void whenTheFirstAnswerWasAnErrorThenTheReplayIsThatError() {
        var api = Api.anonymous().header("Idempotency-Key", UUID.randomUUID().toString());
        var body = Map.of("email", "bad", "username", "x", "password", "Passw0rdOK");
        var first = api.post("/register", body);
        var second = api.post("/register", body);
        assertThat(first.status()).isEqualTo(422);
        assertThat(second.status()).isEqualTo(422);
        assertThat(second.body()).isEqualTo(first.body());
        assertThat(second.header("Idempotent-Replayed")).isEqualTo("true");
    }

    @Test
    void whenTheKeyIsMalformedThen400() {
        var account = Accounts.verified("badkey");
        var reply = account.api().header("Idempotency-Key", "x".repeat(300))
                .post("/api/v1/articles", Map.of("title", "t", "body", "b"));
        assertThat(reply.status()).isEqualTo(400);
    }

    @Test
    void whenAnInvokeIsReplayedThenItKeepsItsAtriumHeadersAndIsChargedOnce() throws Exception {
        var agent = InvokeFixtures.listed(MarketplaceFixtures.staff(), InvokeFixtures.pythonCard("idem"),
                InvokeFixtures.PYTHON_ECHO).id();
        var caller = Accounts.verified("idem-invoke");
        var api = caller.api().header("Idempotency-Key", UUID.randomUUID().toString());

        var first = InvokeFixtures.invoke(api, agent, Map.of("text", "only once"));
        var second = InvokeFixtures.invoke(api, agent, Map.of("text", "only once"));

        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(second.status()).as(second.toString()).isEqualTo(200);
        assertThat(second.body()).isEqualTo(first.body());
        assertThat(second.header("Idempotent-Replayed")).isEqualTo("true");
        var atrium = first.headers().map().keySet().stream()
                .filter(name -> name.toLowerCase(java.util.Locale.ROOT).startsWith("atrium-")).toList();
        assertThat(atrium).extracting(name -> name.toLowerCase(java.util.Locale.ROOT)).contains("atrium-run-id",
                "atrium-agent-version", "atrium-run-status", "atrium-duration-ms", "atrium-tokens-input",
                "atrium-tokens-output", "atrium-price-usd");
        for (String name : atrium) {
            assertThat(second.headers().allValues(name)).as(name).isEqualTo(first.headers().allValues(name));
        }
        var usage = InvokeFixtures.rows("SELECT price_charged FROM agent_usage_records WHERE user_id = ?",
                caller.id());
        assertThat(usage).as("one run, charged once").hasSize(1);
        assertThat(InvokeFixtures.rows("SELECT id FROM agent_runs WHERE caller_id = ?", caller.id())).hasSize(1);
        assertThat(caller.api().get("/v1/me/usage").json().get("total").asLong()).isEqualTo(1);
    }
}
