package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.atrium.sdk.AgentHit;
import dev.atrium.sdk.AtriumClient;
import dev.atrium.sdk.AtriumException;
import dev.atrium.sdk.Invocation;
import dev.atrium.sdk.Step;

/**
 * The Java SDK against the running server: search, recommendation, invocation with its run metadata, the server's
 * errors as typed exceptions, and each composition (pipeline with a mapping, parallel, branch, fallback on a failed
 * run and on an agent's timeout) over real agents in the sandbox.
 */
@ExtendWith(AtriumServer.class)
class SdkIT {

    private static String echo;
    private static String echoName;
    private static String shell;
    private static String sleepy;
    private static AtriumClient client;

    @BeforeAll
    static void setUp() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        var staff = MarketplaceFixtures.staff();
        var card = InvokeFixtures.pythonCard("sdk-echo");
        echoName = card.get("name").asText();
        echo = InvokeFixtures.listed(staff, card, InvokeFixtures.PYTHON_ECHO).id();
        shell = InvokeFixtures.listed(staff, InvokeFixtures.shellCard("sdk-shell", 5), InvokeFixtures.SHELL).id();
        sleepy = InvokeFixtures.listed(staff, InvokeFixtures.shellCard("sdk-sleepy", 2), InvokeFixtures.SHELL).id();
        var caller = Accounts.verified("sdk-caller");
        var key = caller.api().post("/api-keys");
        assertThat(key.status()).as(key.toString()).isIn(200, 201);
        client = AtriumClient.builder(AtriumServer.get().baseUrl(), key.json().get("api_key").asText()).build();
    }

    @Test
    void whenSearchedThenTheListedAgentIsFoundNearestFirst() throws Exception {
        List<AgentHit> hits = List.of();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            hits = client.search("Does one useful thing for tests named " + echoName, "testing", 50).agents();
            if (hits.stream().anyMatch(h -> h.id().equals(echo))) {
                break;
            }
            Thread.sleep(300);
        }
        assertThat(hits).extracting(AgentHit::id).contains(echo);
        assertThat(hits).extracting(AgentHit::distance).isSorted();
        var found = hits.stream().filter(h -> h.id().equals(echo)).findFirst().orElseThrow();
        assertThat(found.name()).isEqualTo(echoName);
    }

    @Test
    void whenATaskIsRecommendedForThenTheAnalysisAndAgentsComeBack() {
        var recommendation = client.recommend("Do one useful thing for a test", 3);

        assertThat(recommendation.agents()).hasSizeLessThanOrEqualTo(3);
        assertThat(recommendation.requiredCapabilities()).isNotNull();
    }

    @Test
    void whenInvokedThenTheOutputAndTheRunsMetadataComeBack() throws Exception {
        Invocation run = client.invokeAsync(echoName, Map.of("text", "hello sdk")).get();

        assertThat(run.succeeded()).isTrue();
        assertThat(run.output().get("result").asText()).isEqualTo("hello sdk");
        assertThat(run.runId()).isNotBlank();
        assertThat(run.agentVersion()).isEqualTo("1.0.0");
        assertThat(run.tokensInput()).isEqualTo(9);
        assertThat(run.priceUsd()).isEqualByComparingTo("0.01");
        var record = InvokeFixtures.rows("SELECT status FROM agent_runs WHERE id = ?",
                java.util.UUID.fromString(run.runId()));
        assertThat(record).singleElement().satisfies(r -> assertThat(r.get("status")).isEqualTo("SUCCEEDED"));
    }

    @Test
    void whenTheServerRefusesThenTheExceptionCarriesItsEnvelope() {
        assertThatThrownBy(() -> client.invoke(echo, Map.of("text", 42)))
                .isInstanceOfSatisfying(AtriumException.InvalidRequest.class, e -> {
                    assertThat(e.status()).isEqualTo(422);
                    assertThat(e.code()).isEqualTo(40001);
                    assertThat(e.details()).hasValueSatisfying(d -> assertThat(d).contains("text"));
                });
        assertThatThrownBy(() -> client.invoke("no-such-agent-" + echo, Map.of("text", "x")))
                .isInstanceOf(AtriumException.NotFound.class);
        var anonymous = AtriumClient.builder(AtriumServer.get().baseUrl(), null).build();
        assertThatThrownBy(() -> anonymous.invoke(echo, Map.of("text", "x")))
                .isInstanceOfSatisfying(AtriumException.Unauthorized.class,
                        e -> assertThat(e.code()).isEqualTo(40100));
    }

    @Test
    void whenAPipelineWithAMappingRunsThenEachOutputFeedsTheNextAgent() {
        var result = Step.pipeline(
                Step.agent(echo).map(out -> Map.of("text", out.get("result").asText() + " again")),
                Step.agent(echoName)).run(client, Map.of("text", "once"));

        assertThat(result.output().get("result").asText()).isEqualTo("once again");
        assertThat(result.invocations()).hasSize(2).allMatch(Invocation::succeeded);
    }

    @Test
    void whenParallelThenBothAgentsAnswerInOrder() {
        var result = Step.parallel(Step.agent(echo), Step.agent(shell)).run(client, Map.of("text", "both"));

        assertThat(result.output().get(0).get("result").asText()).isEqualTo("both");
        assertThat(result.output().get(1).get("shell").asBoolean()).isTrue();
    }

    @Test
    void whenABranchIsTakenThenOnlyTheChosenAgentRuns() {
        Step route = Step.branch(in -> in.path("text").asText().startsWith("sh"), Step.agent(shell),
                Step.agent(echo));

        assertThat(route.run(client, Map.of("text", "shell please")).output().has("shell")).isTrue();
        var echoed = route.run(client, Map.of("text", "echo please"));
        assertThat(echoed.output().get("result").asText()).isEqualTo("echo please");
        assertThat(echoed.invocations()).singleElement().extracting(Invocation::agent).isEqualTo(echo);
    }

    @Test
    void whenThePrimaryRunFailsThenTheFallbackAnswers() {
        var result = Step.fallback(Step.agent(echo), Step.agent(shell)).run(client, Map.of("text", "fail"));

        assertThat(result.output().get("shell").asBoolean()).isTrue();
        assertThat(result.recovered()).singleElement().isInstanceOfSatisfying(AtriumException.RunFailed.class,
                e -> assertThat(e.invocation().status()).isEqualTo("failed"));
    }

    @Test
    void whenThePrimaryAgentTimesOutThenTheFallbackAnswers() {
        var result = Step.fallback(Step.agent(sleepy), Step.agent(echo)).run(client, Map.of("text", "sleep"));

        assertThat(result.output().get("result").asText()).isEqualTo("sleep");
        assertThat(result.recovered()).singleElement().isInstanceOfSatisfying(AtriumException.RunFailed.class,
                e -> assertThat(e.invocation().status()).isEqualTo("timed_out"));
    }

    @Test
    void whenTheReadmesQuickStartIsPastedIntoJshellThenItFindsAndInvokesAnAgent() throws Exception {
        var staff = MarketplaceFixtures.staff();
        var card = MarketplaceFixtures.card(MarketplaceFixtures.unique("text-echo"), "Text echo",
                "Echoes the text it is given back unchanged.", "text", List.of("echo-text"));
        String id = InvokeFixtures.listed(staff, card, InvokeFixtures.PYTHON_ECHO).id();
        var caller = Accounts.verified("sdk-quick-start");
        String key = caller.api().post("/api-keys").json().get("api_key").asText();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && !client.search("echo my text back unchanged", "text", 3).agents()
                .stream().findFirst().map(h -> h.id().equals(id)).orElse(false)) {
            Thread.sleep(300);
        }
        assertThat(client.search("echo my text back unchanged", "text", 3).agents()).first()
                .extracting(AgentHit::id).as("the quick start's search finds this agent first").isEqualTo(id);

        String readme = java.nio.file.Files.readString(java.nio.file.Path.of("..", "sdk", "README.md"));
        int start = readme.indexOf("```java\n", readme.indexOf("## Quick start")) + "```java\n".length();
        String lines = readme.substring(start, readme.indexOf("```", start));
        assertThat(lines.strip().lines()).hasSize(5);
        var script = java.nio.file.Files.createTempFile("quick-start", ".jsh");
        java.nio.file.Files.writeString(script, lines + "/exit\n");
        String classPath = java.util.stream.Stream.of(AtriumClient.class,
                        com.fasterxml.jackson.databind.ObjectMapper.class,
                        com.fasterxml.jackson.core.JsonParser.class,
                        com.fasterxml.jackson.annotation.JsonProperty.class)
                .map(c -> java.nio.file.Path.of(java.net.URI.create(
                        c.getProtectionDomain().getCodeSource().getLocation().toString())).toString())
                .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
        var jshell = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "jshell")
                .toString(), "--class-path", classPath, script.toString()).redirectErrorStream(true);
        jshell.environment().put("ATRIUM_BASE_URL", AtriumServer.get().baseUrl());
        jshell.environment().put("ATRIUM_API_KEY", key);
        var process = jshell.start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).as(output).contains("succeeded {\"result\":\"Hello, Atrium\"").contains("0.01");
        java.nio.file.Files.deleteIfExists(script);
    }
}
