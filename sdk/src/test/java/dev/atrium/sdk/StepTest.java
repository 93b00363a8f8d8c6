package dev.atrium.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StepTest {

    private StubServer server;
    private AtriumClient client;

    @BeforeEach
    void start() throws Exception {
        server = new StubServer((request, n) -> StubServer.agents(request));
        client = AtriumClient.builder(server.url(), "sk-test").build();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private List<String> invoked() {
        return server.requests.stream().map(r -> r.path().replaceAll("^/v1/agents/|/invoke$", "")).toList();
    }

    @Test
    void whenAPipelineRunsThenEachOutputIsTheNextInput() {
        var result = Step.pipeline(Step.agent("increment"), Step.agent("double"), Step.agent("increment"))
                .run(client, Map.of("n", 1));

        assertThat(result.output().get("n").asInt()).isEqualTo(5);
        assertThat(result.invocations()).extracting(Invocation::agent)
                .containsExactly("increment", "double", "increment");
        assertThat(result.priceUsd()).isEqualByComparingTo("0.03");
    }

    @Test
    void whenAMappingSitsBetweenStepsThenTheNextGetsTheMappedOutput() {
        var result = Step.agent("increment").map(out -> Map.of("text", "n=" + out.get("n").asInt()))
                .then(Step.agent("upper")).run(client, Map.of("n", 41));

        assertThat(result.output().get("text").asText()).isEqualTo("N=42");
    }

    @Test
    void whenAStepOfAPipelineFailsThenTheRestDoesNotRun() {
        assertThatThrownBy(() -> Step.pipeline(Step.agent("increment"), Step.agent("broken"), Step.agent("double"))
                .run(client, Map.of("n", 1)))
                .isInstanceOfSatisfying(AtriumException.RunFailed.class, e -> {
                    assertThat(e.invocation().status()).isEqualTo("failed");
                    assertThat(e.getMessage()).contains("broken", "exited with 1");
                });
        assertThat(invoked()).containsExactly("increment", "broken");
    }

    @Test
    void whenParallelThenAllRunOnTheSameInputAndTheOutputsKeepTheirOrder() {
        var result = Step.parallel(Step.agent("slow"), Step.agent("increment"), Step.agent("double"))
                .run(client, Map.of("n", 3));

        assertThat(result.output().isArray()).isTrue();
        assertThat(result.output().get(0).get("n").asInt()).isEqualTo(3);
        assertThat(result.output().get(1).get("n").asInt()).isEqualTo(4);
        assertThat(result.output().get(2).get("n").asInt()).isEqualTo(6);
        assertThat(result.invocations()).hasSize(3);
    }

    @Test
    void whenAParallelBranchFailsFastThenTheStepFailsWithoutWaitingForTheHeldOne() throws Exception {
        var release = new java.util.concurrent.CountDownLatch(1);
        var heldAnswered = new java.util.concurrent.atomic.AtomicBoolean();
        try (var held = new StubServer((request, n) -> {
            if (request.path().contains("/held/")) {
                release.await(30, java.util.concurrent.TimeUnit.SECONDS);
                heldAnswered.set(true);
            }
            return StubServer.agents(request);
        })) {
            var heldClient = AtriumClient.builder(held.url(), "sk-test").build();
            var running = Step.parallel(Step.agent("held"), Step.agent("missing"))
                    .apply(heldClient, StubServer.JSON.createObjectNode());

            assertThatThrownBy(() -> running.get(20, java.util.concurrent.TimeUnit.SECONDS))
                    .hasCauseInstanceOf(AtriumException.NotFound.class);
            assertThat(heldAnswered).as("the failure came while the other branch was still running").isFalse();
            release.countDown();
        }
    }

    @Test
    void whenParallelCollectsAllThenAFailedBranchHoldsItsErrorInItsPlace() {
        var result = Step.parallel(Step.OnFailure.COLLECT_ALL,
                List.of(Step.agent("increment"), Step.agent("broken"), Step.agent("missing")))
                .run(client, Map.of("n", 1));

        assertThat(result.output().get(0).get("n").asInt()).isEqualTo(2);
        assertThat(result.output().get(1).path("error").path("message").asText()).contains("exited with 1");
        assertThat(result.output().get(2).path("error").path("status").asInt()).isEqualTo(404);
        assertThat(result.recovered()).hasSize(2);
    }

    @Test
    void whenABranchConditionHoldsThenItsStepRunsElseTheOther() {
        Step route = Step.branch(input -> input.path("n").asInt() > 10, Step.agent("double"), Step.agent("increment"));

        assertThat(route.run(client, Map.of("n", 20)).output().get("n").asInt()).isEqualTo(40);
        assertThat(route.run(client, Map.of("n", 2)).output().get("n").asInt()).isEqualTo(3);
        assertThat(invoked()).containsExactly("double", "increment");
    }

    @Test
    void whenABranchFollowsAStepThenItDecidesOnThatStepsOutput() {
        var result = Step.agent("double")
                .then(Step.branch(out -> out.path("n").asInt() % 4 == 0, Step.agent("upper"), Step.agent("echo")))
                .run(client, Map.of("n", 2, "text", "kept"));

        assertThat(result.invocations()).extracting(Invocation::agent).containsExactly("double", "upper");
    }

    @Test
    void whenThePrimaryFailsThenTheFallbackServesAndTheFailureIsKept() {
        var result = Step.fallback(Step.agent("broken"), Step.agent("missing"), Step.agent("echo"))
                .run(client, Map.of("x", 1));

        assertThat(result.output().get("x").asInt()).isEqualTo(1);
        assertThat(result.recovered()).hasSize(2);
        assertThat(result.recovered().get(0)).isInstanceOf(AtriumException.RunFailed.class);
        assertThat(result.recovered().get(1)).isInstanceOf(AtriumException.NotFound.class);
        assertThat(invoked()).containsExactly("broken", "missing", "echo");
    }

    @Test
    void whenThePrimaryTakesTooLongThenTheFallbackServes() {
        var result = Step.fallback(Step.agent("slow").timeout(Duration.ofMillis(200)), Step.agent("increment"))
                .run(client, Map.of("n", 1));

        assertThat(result.output().get("n").asInt()).isEqualTo(2);
        assertThat(result.recovered()).singleElement().isInstanceOf(AtriumException.Timeout.class);
    }

    @Test
    void whenEveryFallbackFailsThenTheLastError() {
        assertThatThrownBy(() -> Step.fallback(Step.agent("broken"), Step.agent("times-out")).run(client, Map.of()))
                .isInstanceOfSatisfying(AtriumException.RunFailed.class,
                        e -> assertThat(e.invocation().status()).isEqualTo("timed_out"));
    }

    @Test
    void whenAMappingThrowsThenNoFallbackHidesTheBug() {
        Step buggy = Step.agent("echo").map(out -> {
            throw new IllegalStateException("a bug in the mapping");
        });

        assertThatThrownBy(() -> Step.fallback(buggy, Step.agent("echo")).run(client, Map.of()))
                .isInstanceOf(IllegalStateException.class).hasMessage("a bug in the mapping");
    }

    @Test
    void whenCompositionsNestThenTheyComposeAsOneStep() {
        Step flow = Step.pipeline(
                Step.fallback(Step.agent("missing"), Step.agent("increment")),
                Step.parallel(Step.agent("double"), Step.branch(in -> in.path("n").asInt() == 2,
                        Step.agent("increment"), Step.agent("broken")))
                        .map(out -> Map.of("sum", out.get(0).get("n").asInt() + out.get(1).get("n").asInt())),
                Step.agent("echo"));

        var result = flow.run(client, Map.of("n", 1));

        assertThat(result.output().get("sum").asInt()).isEqualTo(4 + 3);
        assertThat(result.invocations()).extracting(Invocation::agent)
                .containsExactly("increment", "double", "increment", "echo");
    }

    @Test
    void whenAStepIsReusedThenRunsDoNotShareState() {
        Step twice = Step.pipeline(Step.agent("increment"), Step.agent("increment"));

        assertThat(twice.run(client, Map.of("n", 0)).output().get("n").asInt()).isEqualTo(2);
        assertThat(twice.run(client, Map.of("n", 10)).output().get("n").asInt()).isEqualTo(12);
    }
}
