package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Run records (spec 03, Security 5: logs and execution records are visible only to the caller): a run with its input,
 * output and log is its caller's alone; the agent's author and reviewers list the agent's runs without any caller's
 * input or output, and with the log of their own calls only. The attacker is an author whose agent writes its input
 * to stderr (issue 48).
 */
@ExtendWith(AtriumServer.class)
class AgentRunsIT {

    private static Accounts.Account staff;
    private static InvokeFixtures.Listed echo;
    private static Accounts.Account caller;
    private static String succeeded;
    private static String failed;

    /** Writes whatever it is given to stderr, then echoes the text: an author's way to read callers' inputs. */
    private static final byte[] STDERR_ECHO = MarketplaceFixtures.tarGz(tar -> MarketplaceFixtures.file(tar,
            "main.py", """
            import json, sys
            data = json.load(sys.stdin)
            sys.stderr.write("received: " + json.dumps(data) + "\\n")
            print(json.dumps({"output": {"result": data.get("text", "")}}))
            """));

    @BeforeAll
    static void setUp() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        staff = MarketplaceFixtures.staff();
        echo = InvokeFixtures.listed(staff, InvokeFixtures.pythonCard("runs"), InvokeFixtures.PYTHON_ECHO);
        caller = Accounts.verified("runner");
        var ok = InvokeFixtures.invoke(caller.api(), echo.id(), Map.of("text", "secret plans of the caller"));
        assertThat(ok.status()).as(ok.toString()).isEqualTo(200);
        succeeded = ok.header("Atrium-Run-Id");
        var bad = InvokeFixtures.invoke(caller.api(), echo.id(), Map.of("text", "fail"));
        assertThat(bad.status()).as(bad.toString()).isEqualTo(200);
        failed = bad.header("Atrium-Run-Id");
    }

    @Test
    void whenTheCallerReadsTheirRunThenInputOutputStatusAndDurationAreThere() {
        var reply = caller.api().get("/v1/runs/" + succeeded);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        JsonNode run = reply.json();
        assertThat(run.get("id").asText()).isEqualTo(succeeded);
        assertThat(run.get("agent_id").asText()).isEqualTo(echo.id());
        assertThat(run.get("status").asText()).isEqualTo("succeeded");
        assertThat(run.get("input").get("text").asText()).isEqualTo("secret plans of the caller");
        assertThat(run.get("output").get("result").asText()).isEqualTo("secret plans of the caller");
        assertThat(run.get("duration_ms").asLong()).isPositive();
        assertThat(run.get("exit_reason").isNull()).isTrue();
    }

    @Test
    void whenSomeoneElseReadsTheRunThen404() {
        assertThat(Accounts.verified("other").api().get("/v1/runs/" + succeeded).status()).isEqualTo(404);
        assertThat(echo.author().api().get("/v1/runs/" + succeeded).status()).isEqualTo(404);
        assertThat(caller.api().get("/v1/runs/" + UUID.randomUUID()).status()).isEqualTo(404);
        assertThat(Api.anonymous().get("/v1/runs/" + succeeded).status()).isEqualTo(401);
    }

    @Test
    void whenTheAuthorListsTheAgentsRunsThenNoInputOrOutputIsShown() {
        var reply = echo.author().api().get("/v1/agents/" + echo.id() + "/runs?sort=created_at");

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        JsonNode items = reply.json().get("items");
        assertThat(items).hasSize(2);
        for (JsonNode run : items) {
            assertThat(run.has("input")).isFalse();
            assertThat(run.has("output")).isFalse();
            assertThat(run.toString()).doesNotContain("secret plans");
        }
        assertThat(items.get(0).get("id").asText()).isEqualTo(succeeded);
        JsonNode failure = items.get(1);
        assertThat(failure.get("status").asText()).isEqualTo("failed");
        assertThat(failure.get("exit_reason").asText()).contains("exited with code 3");
        assertThat(failure.get("exit_code").asInt()).isEqualTo(3);
        assertThat(failure.get("log").isNull()).as("the caller's log is the caller's").isTrue();
        assertThat(failure.get("duration_ms").asLong()).isPositive();
        var own = caller.api().get("/v1/runs/" + failed).json();
        assertThat(own.get("log").asText()).contains("[email]").doesNotContain("jane.roe");
    }

    @Test
    void whenTheAgentWritesItsInputToStderrThenOnlyTheCallerReadsItAndTheAuthorOnlyTheirOwn() {
        var snoop = InvokeFixtures.listed(staff, MarketplaceFixtures.card(MarketplaceFixtures.unique("snoop")),
                STDERR_ECHO);
        var stranger = Accounts.verified("confider");
        String secret = "merger with Initech closes on 2027-03-01, code name BLUE-HERON-7731";
        var confided = InvokeFixtures.invoke(stranger.api(), snoop.id(), Map.of("text", secret));
        assertThat(confided.status()).as(confided.toString()).isEqualTo(200);
        String strangersRun = confided.header("Atrium-Run-Id");
        var probe = InvokeFixtures.invoke(snoop.author().api(), snoop.id(), Map.of("text", "the author's own probe"));
        assertThat(probe.status()).as(probe.toString()).isEqualTo(200);
        String authorsRun = probe.header("Atrium-Run-Id");

        var mine = stranger.api().get("/v1/runs/" + strangersRun);
        assertThat(mine.status()).as(mine.toString()).isEqualTo(200);
        assertThat(mine.json().get("log").asText()).contains("BLUE-HERON-7731");

        for (var viewer : List.of(snoop.author(), staff)) {
            var list = viewer.api().get("/v1/agents/" + snoop.id() + "/runs?sort=created_at&limit=100");
            assertThat(list.status()).as(list.toString()).isEqualTo(200);
            assertThat(list.body()).doesNotContain("BLUE-HERON").doesNotContain("Initech");
            JsonNode items = list.json().get("items");
            assertThat(items).hasSize(2);
            for (JsonNode run : items) {
                assertThat(run.get("status").asText()).isEqualTo("succeeded");
                assertThat(run.get("exit_code").asInt()).isZero();
                assertThat(run.get("duration_ms").asLong()).isPositive();
            }
            assertThat(items.get(0).get("id").asText()).isEqualTo(strangersRun);
            assertThat(items.get(0).get("log").isNull()).isTrue();
        }
        var authorsList = snoop.author().api().get("/v1/agents/" + snoop.id() + "/runs?sort=created_at").json();
        assertThat(authorsList.at("/items/1/id").asText()).isEqualTo(authorsRun);
        assertThat(authorsList.at("/items/1/log").asText()).contains("the author's own probe");
        assertThat(snoop.author().api().get("/v1/runs/" + strangersRun).status()).isEqualTo(404);
    }

    @Test
    void whenTheListIsFilteredByStatusThenOnlyThoseRunsCome() {
        var reply = echo.author().api().get("/v1/agents/" + echo.id() + "/runs?status=failed");

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("items")).hasSize(1);
        assertThat(reply.json().get("items").get(0).get("id").asText()).isEqualTo(failed);
    }

    @Test
    void whenAReviewerListsTheRunsThenTheySeeThemAndOthersGet404() {
        assertThat(staff.api().get("/v1/agents/" + echo.id() + "/runs").status()).isEqualTo(200);
        assertThat(caller.api().get("/v1/agents/" + echo.id() + "/runs").status()).isEqualTo(404);
        assertThat(echo.author().api().get("/v1/agents/" + UUID.randomUUID() + "/runs").status()).isEqualTo(404);
    }
}
