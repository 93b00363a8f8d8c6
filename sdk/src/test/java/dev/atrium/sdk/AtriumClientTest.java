package dev.atrium.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.atrium.sdk.StubServer.Answer;

class AtriumClientTest {

    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private final List<Duration> waits = new CopyOnWriteArrayList<>();

    /** A client whose retries wait for nothing: the waits asked for are recorded instead. */
    private AtriumClient client(StubServer server) {
        return AtriumClient.builder(server.url(), "sk-test-key").delays(wait -> {
            waits.add(wait);
            return CompletableFuture.completedFuture(null);
        }).clock(Clock.fixed(NOW, ZoneOffset.UTC)).build();
    }

    @Test
    void whenSearchedThenTheQueryAndTheKeyAreSentAndTheHitsRead() throws Exception {
        try (var server = new StubServer((request, n) -> Answer.json(200, """
                {"agents":[{"id":"a1","name":"pdf-summary","display_name":"PDF summary","description":"Sums up",
                "quality_score":87.5,"downloads":12,"distance":0.21}],"total":1}"""))) {
            var result = client(server).search("summarize a pdf & more", "documents", 5);

            assertThat(result.total()).isEqualTo(1);
            assertThat(result.agents()).containsExactly(new AgentHit("a1", "pdf-summary", "PDF summary", "Sums up",
                    87.5, 12, 0.21));
            var request = server.requests.get(0);
            assertThat(request.method()).isEqualTo("GET");
            assertThat(request.path()).isEqualTo("/v1/agents/search");
            assertThat(request.query()).isEqualTo("q=summarize%20a%20pdf%20%26%20more&limit=5&category=documents");
            assertThat(request.header("Authorization")).isEqualTo("Bearer sk-test-key");
        }
    }

    @Test
    void whenRecommendedThenTheTaskIsPostedAndTheAnalysisRead() throws Exception {
        try (var server = new StubServer((request, n) -> Answer.json(200, """
                {"analysis":{"required_capabilities":["summarize","translate"],"category":null},
                "agents":[],"total":0}"""))) {
            var recommendation = client(server).recommend("Summarize and translate", 3);

            assertThat(recommendation.requiredCapabilities()).containsExactly("summarize", "translate");
            assertThat(recommendation.category()).isNull();
            assertThat(StubServer.JSON.readTree(server.requests.get(0).body()))
                    .isEqualTo(StubServer.JSON.readTree("{\"task\":\"Summarize and translate\",\"top_k\":3}"));
        }
    }

    @Test
    void whenInvokedThenTheOutputAndTheRunsMetadataAreRead() throws Exception {
        try (var server = new StubServer((request, n) -> StubServer.agents(request))) {
            var run = client(server).invoke("upper", Map.of("text", "hello"));

            assertThat(run.succeeded()).isTrue();
            assertThat(run.output().get("text").asText()).isEqualTo("HELLO");
            assertThat(run.runId()).isNotBlank();
            assertThat(run.agentVersion()).isEqualTo("1.0.0");
            assertThat(run.durationMs()).isEqualTo(12);
            assertThat(run.tokensInput()).isEqualTo(3);
            assertThat(run.tokensOutput()).isEqualTo(4);
            assertThat(run.priceUsd()).isEqualByComparingTo(new BigDecimal("0.01"));
            assertThat(server.requests.get(0).header("Content-Type")).isEqualTo("application/json");
        }
    }

    @Test
    void whenARunDoesNotSucceedThenInvokeAnswersItAndSaysSo() throws Exception {
        try (var server = new StubServer((request, n) -> StubServer.agents(request))) {
            var run = client(server).invoke("times-out", Map.of());

            assertThat(run.succeeded()).isFalse();
            assertThat(run.status()).isEqualTo("timed_out");
            assertThat(run.output().get("error").asText()).contains("timed out");
        }
    }

    @Test
    void whenTheServerAnswers429WithRetryAfterThenItIsRetriedAfterThatWait() throws Exception {
        try (var server = new StubServer((request, n) -> n <= 2
                ? Answer.json(429, "{\"error\":{\"code\":42900,\"message\":\"Too many\"}}").with("Retry-After", "7")
                : StubServer.agents(request))) {
            var run = client(server).invoke("echo", Map.of("a", 1));

            assertThat(run.output().get("a").asInt()).isEqualTo(1);
            assertThat(server.requests).hasSize(3);
            assertThat(waits).containsExactly(Duration.ofSeconds(7), Duration.ofSeconds(7));
        }
    }

    @Test
    void whenRetryAfterIsAnHttpDateThenTheWaitRunsToIt() throws Exception {
        try (var server = new StubServer((request, n) -> n == 1
                ? Answer.json(503, "").with("Retry-After", "Wed, 25 Nov 2026 10:00:12 GMT")
                : Answer.json(200, "{\"agents\":[],\"total\":0}"))) {
            client(server).search("x", null, 1);

            assertThat(waits).containsExactly(Duration.ofSeconds(12));
        }
    }

    @Test
    void whenThe503sDoNotStopThenTheBackoffDoublesAndTheLastAnswerIsThrown() throws Exception {
        try (var server = new StubServer((request, n) ->
                Answer.json(503, "{\"error\":{\"code\":50300,\"message\":\"No sandbox slot\","
                        + "\"details\":\"busy\"}}"))) {
            assertThatThrownBy(() -> client(server).invoke("echo", Map.of()))
                    .isInstanceOfSatisfying(AtriumException.Unavailable.class, e -> {
                        assertThat(e.status()).isEqualTo(503);
                        assertThat(e.code()).isEqualTo(50300);
                        assertThat(e.getMessage()).isEqualTo("No sandbox slot");
                        assertThat(e.details()).contains("busy");
                    });
            assertThat(server.requests).hasSize(1 + AtriumClient.DEFAULT_MAX_RETRIES);
            assertThat(waits).containsExactly(Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2));
        }
    }

    @Test
    void whenTheServerAsksForAWaitBeyondTheLimitThenItIsNotMade() throws Exception {
        try (var server = new StubServer((request, n) -> StubServer.agents(request))) {
            assertThatThrownBy(() -> client(server).invoke("busy", Map.of()))
                    .isInstanceOf(AtriumException.Unavailable.class);
            assertThat(server.requests).hasSize(1);
            assertThat(waits).isEmpty();
        }
    }

    @ParameterizedTest
    @CsvSource({
            "400, InvalidRequest", "401, Unauthorized", "402, PaymentRequired", "403, Unauthorized",
            "404, NotFound", "409, AtriumException", "422, InvalidRequest", "500, AtriumException",
            "502, AtriumException", "504, AtriumException"})
    void whenAnyOtherErrorThenItIsNeverRetriedAndCarriesTheEnvelope(int status, String type) throws Exception {
        try (var server = new StubServer((request, n) -> Answer.json(status,
                "{\"error\":{\"code\":" + status + "01,\"message\":\"m\",\"details\":{\"field\":\"text\"}}}"))) {
            assertThatThrownBy(() -> client(server).invoke("echo", Map.of()))
                    .isInstanceOfSatisfying(AtriumException.class, e -> {
                        assertThat(e.getClass().getSimpleName()).isEqualTo(type);
                        assertThat(e.status()).isEqualTo(status);
                        assertThat(e.code()).isEqualTo(status * 100 + 1);
                        assertThat(e.details()).contains("{\"field\":\"text\"}");
                    });
            assertThat(server.requests).hasSize(1);
            assertThat(waits).isEmpty();
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "<html><body>502 Bad Gateway</body></html>|HTTP 502",
            "''|HTTP 502",
            "{\"error\":\"plain text\"}|plain text",
            "{\"error\":{\"code\":\"not a number\",\"message\":42}}|HTTP 502",
            "[1,2,3]|HTTP 502",
            "{\"error\":{\"message\":\"\\u0000\\u0007\"}}|'\u0000\u0007'"})
    void whenAnErrorBodyIsHostileThenTheStatusStillSpeaks(String body, String message) throws Exception {
        try (var server = new StubServer((request, n) -> Answer.json(502, body))) {
            assertThatThrownBy(() -> client(server).search("x", null, 1))
                    .isInstanceOfSatisfying(AtriumException.class, e -> {
                        assertThat(e.status()).isEqualTo(502);
                        assertThat(e.getMessage()).isEqualTo(message);
                    });
        }
    }

    @Test
    void whenAnErrorMessageIsHugeThenItIsCut() throws Exception {
        String huge = "x".repeat(100_000);
        try (var server = new StubServer((request, n) -> Answer.json(500,
                "{\"error\":{\"code\":1,\"message\":\"" + huge + "\",\"details\":\"" + huge + "\"}}"))) {
            assertThatThrownBy(() -> client(server).search("x", null, 1))
                    .isInstanceOfSatisfying(AtriumException.class, e -> {
                        assertThat(e.getMessage()).hasSizeLessThan(400);
                        assertThat(e.details().orElseThrow()).hasSizeLessThan(400);
                    });
        }
    }

    @Test
    void whenASuccessfulAnswerIsNotJsonThenTransportError() throws Exception {
        try (var server = new StubServer((request, n) -> Answer.json(200, "<html>captive portal</html>"))) {
            assertThatThrownBy(() -> client(server).search("x", null, 1))
                    .isInstanceOf(AtriumException.Transport.class);
        }
    }

    @Test
    void whenTheServerIsSlowerThanTheTimeoutThenTimeoutAndNoRetry() throws Exception {
        try (var server = new StubServer((request, n) -> Answer.json(200, "{}").after(3000))) {
            var impatient = AtriumClient.builder(server.url(), "sk-k").timeout(Duration.ofMillis(300)).build();

            assertThatThrownBy(() -> impatient.invoke("echo", Map.of()))
                    .isInstanceOf(AtriumException.Timeout.class);
            assertThat(server.requests).hasSize(1);
        }
    }

    @Test
    void whenNothingListensThenTransportError() throws Exception {
        String url;
        try (var server = new StubServer((request, n) -> Answer.json(200, "{}"))) {
            url = server.url();
        }
        assertThatThrownBy(() -> AtriumClient.builder(url, null).build().search("x", null, 1))
                .isInstanceOf(AtriumException.Transport.class);
    }

    @Test
    void whenCalledAsynchronouslyThenTheFutureCarriesTheRunOrTheTypedError() throws Exception {
        try (var server = new StubServer((request, n) -> StubServer.agents(request))) {
            var client = client(server);
            var ok = client.invokeAsync("increment", Map.of("n", 1));
            var missing = client.invokeAsync("no-such-agent", Map.of());

            assertThat(ok.get().output().get("n").asInt()).isEqualTo(2);
            assertThatThrownBy(missing::join).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(AtriumException.NotFound.class);
        }
    }

    @Test
    void whenTheDefaultsAreKeptThenTimeoutIsThirtySecondsAndThreeRetries() {
        assertThat(AtriumClient.DEFAULT_TIMEOUT).isEqualTo(Duration.ofSeconds(30));
        assertThat(AtriumClient.DEFAULT_MAX_RETRIES).isEqualTo(3);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "ftp://host|sk-a", "not a url|sk-a", "http://|sk-a", "javascript:alert(1)|sk-a",
            "http://host|'sk-a\r\nX-Injected: 1'", "http://host|'sk a'", "http://host|''"})
    void whenTheBuilderIsGivenHostileSettingsThenItRefuses(String url, String key) {
        assertThatThrownBy(() -> AtriumClient.builder(url, key).build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whenTheInputIsNotAnObjectOrTheAgentUnnamedThenRefusedBeforeSending() throws Exception {
        try (var server = new StubServer((request, n) -> StubServer.agents(request))) {
            var client = client(server);
            assertThatThrownBy(() -> client.invoke("echo", List.of(1))).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> client.invoke(" ", Map.of())).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> client.search("", null, 1)).isInstanceOf(IllegalArgumentException.class);
            assertThat(server.requests).isEmpty();
        }
    }

    @Test
    void whenTheAgentNameHoldsPathCharactersThenTheyAreEncodedNotFollowed() throws Exception {
        try (var server = new StubServer((request, n) -> StubServer.agents(request))) {
            assertThatThrownBy(() -> client(server).invoke("../../admin/users", Map.of()))
                    .isInstanceOf(AtriumException.NotFound.class);
            assertThat(server.requests.get(0).path()).isEqualTo("/v1/agents/..%2F..%2Fadmin%2Fusers/invoke");
        }
    }

    @Test
    void whenAnyOtherPathIsReadThenItIsAskedOfTheServerWithTheKey() throws Exception {
        try (var server = new StubServer((request, n) -> Answer.json(200, "{\"month\":\"2026-10\"}"))) {
            var answer = client(server).get("/v1/me/revenue?month=2026-10");

            assertThat(answer.get("month").asText()).isEqualTo("2026-10");
            assertThat(server.requests.get(0).path()).isEqualTo("/v1/me/revenue");
            assertThat(server.requests.get(0).query()).isEqualTo("month=2026-10");
            assertThat(server.requests.get(0).header("Authorization")).isEqualTo("Bearer sk-test-key");
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"http://elsewhere.example/steal", "//elsewhere.example/steal",
            "https://elsewhere.example", "''", "file:///etc/passwd", "'a b'"})
    void whenAPathLeadsToAnotherHostThenTheKeyIsNotSent(String path) throws Exception {
        try (var server = new StubServer((request, n) -> Answer.json(200, "{}"))) {
            assertThatThrownBy(() -> client(server).get(path)).isInstanceOf(IllegalArgumentException.class);
            assertThat(server.requests).isEmpty();
        }
    }
}
