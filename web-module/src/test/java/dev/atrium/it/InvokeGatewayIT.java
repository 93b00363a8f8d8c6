package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Spec 03's invoke through the running server with real bundles in the sandbox: headers, usage and run records with
 * the outbox event, authentication, the agent's status, input validation, masking, the personal data flag, the rate
 * limit per user and its window, the free tier across a month, timeouts, the slot pool and image-only agents.
 */
@ExtendWith(AtriumServer.class)
class InvokeGatewayIT {

    private static Accounts.Account staff;
    private static Accounts.Account developer;
    private static String echo;
    private static String echoName;
    private static String shell;

    @BeforeAll
    static void setUp() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        staff = MarketplaceFixtures.staff();
        developer = Accounts.verified("invoke-dev");
        var card = InvokeFixtures.pythonCard("echo");
        echoName = card.get("name").asText();
        echo = InvokeFixtures.listed(staff, card, InvokeFixtures.PYTHON_ECHO).id();
        shell = InvokeFixtures.listed(staff, InvokeFixtures.shellCard("shell", 2), InvokeFixtures.SHELL).id();
    }

    @Test
    void whenAnActiveAgentIsInvokedThenItsOutputComesBackWithTheRunsHeadersAndUsageIsRecorded() throws Exception {
        var caller = Accounts.verified("invoker");

        var reply = InvokeFixtures.invoke(caller.api(), echo, Map.of("text", "hello world"));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("result").asText()).isEqualTo("hello world");
        String runId = reply.header("Atrium-Run-Id");
        assertThat(runId).isNotBlank();
        assertThat(reply.header("Atrium-Agent-Version")).isEqualTo("1.0.0");
        assertThat(reply.header("Atrium-Run-Status")).isEqualTo("succeeded");
        assertThat(Long.parseLong(reply.header("Atrium-Duration-Ms"))).isPositive();
        assertThat(reply.header("Atrium-Tokens-Input")).isEqualTo("11");
        assertThat(reply.header("Atrium-Tokens-Output")).isEqualTo("11");
        assertThat(new BigDecimal(reply.header("Atrium-Price-Usd"))).isEqualByComparingTo("0.01");
        assertThat(reply.header("X-RateLimit-Limit")).isEqualTo("100");
        assertThat(reply.header("X-RateLimit-Remaining")).isEqualTo("99");

        var usage = InvokeFixtures.rows("SELECT * FROM agent_usage_records WHERE run_id = ?", UUID.fromString(runId));
        assertThat(usage).hasSize(1);
        var record = usage.get(0);
        assertThat(record.get("user_id")).isEqualTo(caller.id());
        assertThat(record.get("agent_id").toString()).isEqualTo(echo);
        assertThat(record.get("agent_version")).isEqualTo("1.0.0");
        assertThat((BigDecimal) record.get("price_charged")).isEqualByComparingTo("0.010000");
        assertThat((BigDecimal) record.get("developer_share")).isEqualByComparingTo("0.007000");
        assertThat((BigDecimal) record.get("cost_llm")).isEqualByComparingTo("0.000100");
        assertThat(((Number) record.get("tokens_input")).longValue()).isEqualTo(11);
        assertThat(record.get("succeeded")).isEqualTo(true);
        var events = InvokeFixtures.rows("SELECT destination FROM outbox_events WHERE event_type = 'UsageRecorded' "
                + "AND payload = ?", record.get("id").toString());
        assertThat(events).extracting(r -> r.get("destination")).containsExactly("billing");
        var runs = InvokeFixtures.rows("SELECT status, caller_id FROM agent_runs WHERE id = ?",
                UUID.fromString(runId));
        assertThat(runs).hasSize(1);
        assertThat(runs.get(0).get("status")).isEqualTo("SUCCEEDED");
        var agent = Api.anonymous().get("/v1/agents/" + echo).json();
        assertThat(agent.get("total_calls").asLong()).isPositive();
    }

    @Test
    void whenAnAgentIsInvokedByNameThenItRuns() {
        var reply = InvokeFixtures.invoke(Accounts.verified("byname").api(), echoName, Map.of("text", "hello"));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("result").asText()).isEqualTo("hello");
    }

    @Test
    void whenTheShellAgentIsInvokedThenItAnswers() {
        var reply = InvokeFixtures.invoke(Accounts.verified("shell").api(), shell, Map.of("text", "hello"));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("shell").asBoolean()).isTrue();
    }

    @Test
    void whenTheCallerIsNotAuthenticatedThen401() {
        var anonymous = InvokeFixtures.invoke(Api.anonymous(), echo, Map.of("text", "hello"));
        var forged = InvokeFixtures.invoke(Api.anonymous().withToken("sk-not-a-real-key"), echo,
                Map.of("text", "hello"));

        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.json().get("error").get("code").asInt()).isEqualTo(40100);
        assertThat(forged.status()).isEqualTo(401);
    }

    @Test
    void whenTheAgentIsPendingOrUnknownThen404() {
        var pending = MarketplaceFixtures.submit(developer.api(), InvokeFixtures.pythonCard("pending"),
                InvokeFixtures.PYTHON_ECHO);
        assertThat(pending.status()).as(pending.toString()).isEqualTo(202);
        var caller = Accounts.verified("pending").api();

        assertThat(InvokeFixtures.invoke(caller, pending.json().get("agent_id").asText(), Map.of("text", "hello"))
                .status()).isEqualTo(404);
        assertThat(InvokeFixtures.invoke(caller, UUID.randomUUID().toString(), Map.of("text", "hello")).status())
                .isEqualTo(404);
        assertThat(InvokeFixtures.invoke(caller, "no-such-agent-" + UUID.randomUUID(), Map.of("text", "x"))
                .status()).isEqualTo(404);
    }

    @Test
    void whenTheInputBreaksTheSchemaThen422WithValidFalseNamingTheFields() {
        var caller = Accounts.verified("badinput").api();

        var reply = InvokeFixtures.invoke(caller, echo, Map.of("count", "three"));
        var notObject = InvokeFixtures.invoke(caller, echo, List.of("text"));
        var malformed = caller.send("POST", "/v1/agents/" + echo + "/invoke", "{\"text\": ", "application/json");

        assertThat(reply.status()).as(reply.toString()).isEqualTo(422);
        assertThat(reply.json().get("valid").asBoolean()).isFalse();
        assertThat(reply.json().get("error").get("code").asInt()).isEqualTo(40001);
        assertThat(reply.json().get("error").get("details").asText()).contains("/text").contains("/count");
        assertThat(reply.header("Atrium-Run-Id")).isNull();
        assertThat(notObject.status()).isEqualTo(422);
        assertThat(notObject.json().get("error").get("details").asText()).contains("JSON object");
        assertThat(malformed.status()).isEqualTo(400);
    }

    @Test
    void whenTheInputCarriesPersonalDataThenTheAgentSeesItMasked() {
        var caller = Accounts.verified("masked").api();

        var reply = InvokeFixtures.invoke(caller, echo, Map.of("text", "write to john.doe@example.com or "
                + "+49 30 1234567, card 4111 1111 1111 1111"));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        String seen = reply.json().get("seen").asText();
        assertThat(seen).contains("[email]").contains("[card]").doesNotContain("john.doe")
                .doesNotContain("4111 1111");
        var run = caller.get("/v1/runs/" + reply.header("Atrium-Run-Id")).json();
        assertThat(run.get("input").get("text").asText()).contains("[email]").doesNotContain("john.doe");
    }

    @Test
    void whenTheOutputCarriesPersonalDataThenItIsAnsweredAndTheRunIsFlagged() {
        var caller = Accounts.verified("leak").api();

        var reply = InvokeFixtures.invoke(caller, echo, Map.of("text", "leak"));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("contact").asText()).isEqualTo("jane.roe@example.com");
        var run = caller.get("/v1/runs/" + reply.header("Atrium-Run-Id")).json();
        assertThat(run.get("personal_data_in_output").asBoolean()).isTrue();
        assertThat(run.get("personal_data_kinds").toString()).contains("email");
    }

    @Test
    void whenTheAgentFailsThenTheAnswerIsAnErrorObjectAndTheRunIsRecordedUnpriced() throws Exception {
        var caller = Accounts.verified("fail").api();

        var reply = InvokeFixtures.invoke(caller, echo, Map.of("text", "fail"));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("error").asText()).contains("exited with code 3");
        assertThat(reply.header("Atrium-Run-Status")).isEqualTo("failed");
        assertThat(reply.header("Atrium-Price-Usd")).isEqualTo("0.000000");
        String runId = reply.header("Atrium-Run-Id");
        var usage = InvokeFixtures.rows("SELECT price_charged, succeeded FROM agent_usage_records WHERE run_id = ?",
                UUID.fromString(runId));
        assertThat((BigDecimal) usage.get(0).get("price_charged")).isZero();
        assertThat(usage.get(0).get("succeeded")).isEqualTo(false);
        var run = caller.get("/v1/runs/" + runId).json();
        assertThat(run.get("log").asText()).contains("[email]").doesNotContain("jane.roe");
        assertThat(run.get("exit_code").asInt()).isEqualTo(3);
    }

    @Test
    void whenTheAgentSleepsPastItsTimeoutThenTheAnswerSaysItTimedOut() {
        var reply = InvokeFixtures.invoke(Accounts.verified("sleepy").api(), shell, Map.of("text", "sleep"));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("error").asText()).endsWith("timed out after 2 s");
        assertThat(reply.header("Atrium-Run-Status")).isEqualTo("timed_out");
    }

    @Test
    void whenTheAgentDeclaresEnvironmentVariablesThenItSeesOnlyTheConfiguredOnes() {
        var reply = InvokeFixtures.invoke(Accounts.verified("env").api(), echo, Map.of("text", "env"));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        var env = reply.json().get("env");
        assertThat(env.get("ATRIUM_TEST_GREETING").asText()).isEqualTo(AtriumServer.SANDBOX_GREETING);
        assertThat(env.size()).as(env.toString()).isEqualTo(1);
    }

    @Test
    void whenAnApiKeyMakesAHundredAndOneCallsInAWindowThen429AndTheNextWindowWorks() {
        var caller = InvokeFixtures.withApiKey(Accounts.verified("ratelimit"));
        try (var clock = ServerClock.borrowed()) {
            long intoWindow = clock.now().getEpochSecond() % 60;
            if (intoWindow > 30) {
                clock.advance(Duration.ofSeconds(61 - intoWindow));
            }
            // refused input is counted by the limit and costs no sandbox run
            for (int i = 1; i <= 100; i++) {
                var reply = InvokeFixtures.invoke(caller, echo, Map.of("count", i));
                assertThat(reply.status()).as("call " + i + ": " + reply).isEqualTo(422);
            }

            var limited = InvokeFixtures.invoke(caller, echo, Map.of("text", "hello"));

            assertThat(limited.status()).as(limited.toString()).isEqualTo(429);
            assertThat(limited.json().get("error").get("code").asInt()).isEqualTo(42900);
            assertThat(limited.json().get("error").get("message").asText()).as("the invoke limit answered")
                    .isEqualTo("Too many invocations");
            assertThat(limited.header("X-RateLimit-Limit")).isEqualTo("100");
            assertThat(limited.header("X-RateLimit-Remaining")).isEqualTo("0");
            assertThat(limited.header("Retry-After")).isNotBlank();

            clock.advance(Duration.ofSeconds(60));

            var next = InvokeFixtures.invoke(caller, echo, Map.of("text", "hello"));
            assertThat(next.status()).as(next.toString()).isEqualTo(200);
        }
    }

    @Test
    void whenTheGenericPerMinuteBucketIsUsedUpThenInvocationsStillHaveTheirOwnLimit() {
        var caller = Accounts.verified("generic");
        try (var clock = ServerClock.borrowed()) {
            long intoWindow = clock.now().getEpochSecond() % 60;
            if (intoWindow > 30) {
                clock.advance(Duration.ofSeconds(61 - intoWindow));
            }
            Reply last = null;
            for (int i = 0; i < 101; i++) {
                last = caller.api().get("/v1/runs/" + UUID.randomUUID());
            }
            assertThat(last.status()).as("the generic bucket is used up: " + last).isEqualTo(429);

            var reply = InvokeFixtures.invoke(caller.api(), echo, Map.of("text", "hello"));

            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            assertThat(reply.header("X-RateLimit-Remaining")).isEqualTo("99");
        }
    }

    @Test
    void whenAFreeUsersTokensAreUsedUpThen402UntilTheNextMonth() {
        var caller = InvokeFixtures.withApiKey(Accounts.verified("freetier"));
        try (var clock = ServerClock.borrowed()) {
            var big = InvokeFixtures.invoke(caller, echo, Map.of("text", "big"));
            assertThat(big.status()).as("started under the limit, so finished").isEqualTo(200);

            var refused = InvokeFixtures.invoke(caller, echo, Map.of("text", "hello"));

            assertThat(refused.status()).as(refused.toString()).isEqualTo(402);
            assertThat(refused.json().get("error").get("code").asInt()).isEqualTo(40200);
            assertThat(refused.json().get("error").get("details").asText()).contains("tokens");

            var now = clock.now().atOffset(ZoneOffset.UTC);
            var nextMonth = now.toLocalDate().withDayOfMonth(1).plusMonths(1).atStartOfDay().atOffset(ZoneOffset.UTC);
            clock.advance(Duration.between(now, nextMonth).plusMinutes(1));

            var again = InvokeFixtures.invoke(caller, echo, Map.of("text", "hello"));
            assertThat(again.status()).as(again.toString()).isEqualTo(200);
        }
    }

    @Test
    void whenAFreeUserMadeAHundredCallsThisMonthThenTheNextIsRefusedWith402() {
        var caller = InvokeFixtures.withApiKey(Accounts.verified("freecalls"));
        try (var clock = ServerClock.borrowed()) {
            for (int i = 1; i <= 100; i++) {
                if (i == 51) {
                    // a fresh rate window, so that only the free tier can refuse
                    clock.advance(Duration.ofSeconds(60));
                }
                var reply = InvokeFixtures.invoke(caller, shell, Map.of("text", "hello"));
                assertThat(reply.status()).as("call " + i + ": " + reply).isEqualTo(200);
            }
            clock.advance(Duration.ofSeconds(60));

            var refused = InvokeFixtures.invoke(caller, shell, Map.of("text", "hello"));

            assertThat(refused.status()).as(refused.toString()).isEqualTo(402);
            assertThat(refused.json().get("error").get("details").asText()).contains("100 calls");
        }
    }

    @Test
    void whenEveryInvocationSlotIsBusyThenTheNextCallerGets503WithRetryAfter() throws Exception {
        // one slot is kept for the pre-listing checks, and one caller or one agent holds at most half the slots:
        // the invocation slots are filled by distinct callers over two agents
        var sleepers = List.of(
                InvokeFixtures.listed(staff, InvokeFixtures.shellCard("sleeper", 10), InvokeFixtures.SHELL).id(),
                InvokeFixtures.listed(staff, InvokeFixtures.shellCard("sleeper", 10), InvokeFixtures.SHELL).id());
        int invocationSlots = AtriumServer.SANDBOX_SLOTS - 1;
        var threads = Executors.newFixedThreadPool(invocationSlots);
        var holding = new ArrayList<Future<Reply>>();
        for (int i = 0; i < invocationSlots; i++) {
            var holder = Accounts.verified("busy").api();
            String sleeper = sleepers.get(i % 2);
            holding.add(threads.submit(() -> InvokeFixtures.invoke(holder, sleeper, Map.of("text", "sleep"))));
        }
        threads.shutdown();
        Accounts.sleep(2500);
        var caller = Accounts.verified("busy").api();

        var refused = InvokeFixtures.invoke(caller, echo, Map.of("text", "hello"));

        assertThat(refused.status()).as(refused.toString()).isEqualTo(503);
        assertThat(refused.json().at("/error/message").asText()).isEqualTo("All sandbox slots are busy");
        assertThat(refused.header("Retry-After")).isNotBlank();
        for (var call : holding) {
            var reply = call.get(60, TimeUnit.SECONDS);
            assertThat(reply.header("Atrium-Run-Status")).as(reply.toString()).isEqualTo("timed_out");
        }
        assertThat(InvokeFixtures.invoke(caller, echo, Map.of("text", "hello")).status()).isEqualTo(200);
    }

    @Test
    void whenAnAgentShipsAsAnImageOnlyThenInvokeAnswers503() {
        var card = MarketplaceFixtures.card(MarketplaceFixtures.unique("image"));
        var runtime = (com.fasterxml.jackson.databind.node.ObjectNode) card.get("runtime");
        runtime.remove("entrypoint");
        runtime.put("docker_image", "registry.example/agents/image:1.0.0");
        var submitted = MarketplaceFixtures.submit(developer.api(), card, null);
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        String id = submitted.json().get("agent_id").asText();
        MarketplaceFixtures.approve(staff, id);

        var reply = InvokeFixtures.invoke(Accounts.verified("image").api(), id, Map.of("text", "hello"));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(503);
        assertThat(reply.json().get("error").get("details").asText()).contains("image");
    }

    @Test
    void whenHealthIsAskedThenItReportsTheSandbox() {
        var health = Api.anonymous().get("/health").json();

        assertThat(health.get("sandbox").asText()).isEqualTo("ok");
    }
}
