package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Run records (spec 03, Authentication 5): a run with its input and output is its caller's alone; the agent's author
 * and reviewers list the agent's runs without any caller's input or output.
 */
@ExtendWith(AtriumServer.class)
class AgentRunsIT {

    private static Accounts.Account staff;
    private static InvokeFixtures.Listed echo;
    private static Accounts.Account caller;
    private static String succeeded;
    private static String failed;

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
        assertThat(failure.get("log").asText()).contains("[email]").doesNotContain("jane.roe");
        assertThat(failure.get("duration_ms").asLong()).isPositive();
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
