package dev.atrium.ai.control.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.time.MovableClock;
import no.nav.security.mock.oauth2.MockOAuth2Server;

class ClientCredentialsTokensTest {

    record Answer(int status, String contentType, byte[] body) {
        static Answer json(int status, String body) {
            return new Answer(status, "application/json", body.getBytes(StandardCharsets.UTF_8));
        }
    }

    private HttpServer server;
    private final AtomicInteger fetches = new AtomicInteger();
    private final AtomicReference<IntFunction<Answer>> answers = new AtomicReference<>();
    private final AtomicReference<String> lastAuthorization = new AtomicReference<>();
    private final AtomicReference<String> lastForm = new AtomicReference<>();
    private volatile long delayMillis;
    private final MovableClock clock = new MovableClock(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"),
            ZoneOffset.UTC));

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/token", exchange -> {
            int n = fetches.incrementAndGet();
            lastAuthorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
            lastForm.set(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            try {
                Thread.sleep(delayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Answer answer = answers.get().apply(n);
            exchange.getResponseHeaders().add("Content-Type", answer.contentType());
            exchange.sendResponseHeaders(answer.status(), answer.body().length == 0 ? -1 : answer.body().length);
            try (var out = exchange.getResponseBody()) {
                out.write(answer.body());
            } catch (IOException e) {
                // the client may hang up on a body it will not read
            }
        });
        server.start();
        answers.set(n -> Answer.json(200, "{\"access_token\":\"token-" + n
                + "\",\"token_type\":\"Bearer\",\"expires_in\":100}"));
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private ClientCredentialsTokens tokens() {
        return tokens(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/token"));
    }

    private ClientCredentialsTokens tokens(URI endpoint) {
        return new ClientCredentialsTokens(endpoint, "atrium", "s3cret", "models.read", clock, Duration.ofSeconds(5));
    }

    @Test
    void whenTokenFetchedThenClientCredentialsGrantWithBasicAuthAndScope() {
        assertThat(tokens().token()).isEqualTo("token-1");

        assertThat(lastForm.get()).contains("grant_type=client_credentials").contains("scope=models.read")
                .doesNotContain("s3cret");
        assertThat(lastAuthorization.get()).isEqualTo("Basic "
                + Base64.getEncoder().encodeToString("atrium:s3cret".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void whenTokenStillValidThenCachedAndNotFetchedAgain() {
        var tokens = tokens();
        for (int i = 0; i < 20; i++) {
            assertThat(tokens.token()).isEqualTo("token-1");
        }
        assertThat(fetches).hasValue(1);
    }

    @Test
    void whenManyCallersAtOnceThenOneFetchSharedByAll() throws Exception {
        var tokens = tokens();
        delayMillis = 300;
        int callers = 16;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            var ready = new CountDownLatch(1);
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                results.add(pool.submit(() -> {
                    ready.await();
                    return tokens.token();
                }));
            }
            ready.countDown();
            for (var result : results) {
                assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("token-1");
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(fetches).hasValue(1);
    }

    @Test
    void whenClockNearsExpiryThenFetchedAgainShortlyBefore() {
        var tokens = tokens();
        assertThat(tokens.token()).isEqualTo("token-1");

        // expires_in 100 s: kept until 10 % (10 s) before it expires
        clock.advance(Duration.ofSeconds(89));
        assertThat(tokens.token()).isEqualTo("token-1");
        clock.advance(Duration.ofSeconds(2));
        assertThat(tokens.token()).isEqualTo("token-2");
        assertThat(fetches).hasValue(2);
    }

    @Test
    void whenLongLivedTokenThenRefreshedThirtySecondsBefore() {
        answers.set(n -> Answer.json(200, "{\"access_token\":\"t" + n + "\",\"token_type\":\"Bearer\","
                + "\"expires_in\":3600}"));
        var tokens = tokens();
        tokens.token();
        clock.advance(Duration.ofSeconds(3569));
        assertThat(tokens.token()).isEqualTo("t1");
        clock.advance(Duration.ofSeconds(2));
        assertThat(tokens.token()).isEqualTo("t2");
    }

    @Test
    void whenNoExpiresInThenKeptForTheDefaultLifetime() {
        answers.set(n -> Answer.json(200, "{\"access_token\":\"t" + n + "\",\"token_type\":\"Bearer\"}"));
        var tokens = tokens();
        tokens.token();
        clock.advance(ClientCredentialsTokens.DEFAULT_LIFETIME.minusSeconds(31));
        assertThat(tokens.token()).isEqualTo("t1");
        clock.advance(Duration.ofSeconds(2));
        assertThat(tokens.token()).isEqualTo("t2");
    }

    @Test
    void whenRejectedThenNextCallFetchesOnceForAllRejections() {
        var tokens = tokens();
        String first = tokens.token();

        tokens.rejected(first);
        tokens.rejected(first);
        assertThat(tokens.token()).isEqualTo("token-2");
        // a late 401 for the old token must not throw away the new one
        tokens.rejected(first);
        assertThat(tokens.token()).isEqualTo("token-2");
        assertThat(fetches).hasValue(2);
    }

    @Test
    void whenEndpointDownThen503AndNotAskedAgainBeforeTheBackoff() throws IOException {
        int port;
        try (var socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        var tokens = tokens(URI.create("http://127.0.0.1:" + port + "/token"));

        assertThatThrownBy(tokens::token).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE));
        assertThatThrownBy(tokens::token).isInstanceOf(BusinessException.class);
    }

    @Test
    void whenEndpointFailsThenRemembersTheFailureUntilTheBackoffEnds() {
        answers.set(n -> n == 1 ? Answer.json(500, "{}") : Answer.json(200,
                "{\"access_token\":\"ok\",\"token_type\":\"Bearer\",\"expires_in\":60}"));
        var tokens = tokens();

        assertThatThrownBy(tokens::token).isInstanceOf(BusinessException.class);
        assertThatThrownBy(tokens::token).isInstanceOf(BusinessException.class);
        assertThat(fetches).hasValue(1);
        clock.advance(ClientCredentialsTokens.FAILURE_BACKOFF);
        assertThat(tokens.token()).isEqualTo("ok");
    }

    @Test
    void whenEndpointTooSlowThen503() {
        delayMillis = 3_000;
        var tokens = new ClientCredentialsTokens(URI.create("http://127.0.0.1:" + server.getAddress().getPort()
                + "/token"), "atrium", "s3cret", null, clock, Duration.ofMillis(500));

        assertThatThrownBy(tokens::token).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE));
    }

    static List<Arguments> hostileAnswers() {
        byte[] huge = new byte[ClientCredentialsTokens.MAX_RESPONSE_BYTES + 10];
        java.util.Arrays.fill(huge, (byte) 'a');
        String longToken = "x".repeat(ClientCredentialsTokens.MAX_TOKEN_CHARS + 1);
        return List.of(
                Arguments.of("not JSON", new Answer(200, "application/json", "<html>hi</html>".getBytes())),
                Arguments.of("JSON array", Answer.json(200, "[1,2]")),
                Arguments.of("no access_token", Answer.json(200, "{\"token_type\":\"Bearer\"}")),
                Arguments.of("no token_type", Answer.json(200, "{\"access_token\":\"a\"}")),
                Arguments.of("access_token a number", Answer.json(200, "{\"access_token\":5,\"token_type\":\"Bearer\"}")),
                Arguments.of("token with a line break", Answer.json(200,
                        "{\"access_token\":\"a\\r\\nX-Evil: 1\",\"token_type\":\"Bearer\"}")),
                Arguments.of("token with non-ASCII", Answer.json(200,
                        "{\"access_token\":\"t\u00e9\",\"token_type\":\"Bearer\"}")),
                Arguments.of("token too long", Answer.json(200,
                        "{\"access_token\":\"" + longToken + "\",\"token_type\":\"Bearer\"}")),
                Arguments.of("huge body", new Answer(200, "application/json", huge)),
                Arguments.of("huge error body", new Answer(500, "text/plain", huge)),
                Arguments.of("error=invalid_client", Answer.json(401,
                        "{\"error\":\"invalid_client\",\"error_description\":\"bad secret\"}")),
                Arguments.of("hostile error code", Answer.json(400, "{\"error\":\"<script>\\n\"}")),
                Arguments.of("500 with HTML", new Answer(500, "text/html", "<h1>down</h1>".getBytes())),
                Arguments.of("empty 200", new Answer(200, "application/json", new byte[0])),
                Arguments.of("wrong content type", new Answer(200, "text/plain",
                        "{\"access_token\":\"a\",\"token_type\":\"Bearer\"}".getBytes())),
                Arguments.of("garbage content type", new Answer(200, ";;;=",
                        "{\"access_token\":\"a\",\"token_type\":\"Bearer\"}".getBytes())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileAnswers")
    void whenTokenEndpointAnswersHostileThenClear502(String name, Answer answer) {
        answers.set(n -> answer);

        Throwable thrown = catchThrowable(tokens()::token);

        assertThat(thrown).isInstanceOfSatisfying(BusinessException.class, e -> {
            assertThat(e.problem()).isEqualTo(Problem.UPSTREAM);
            assertThat(e.getMessage()).doesNotContain("s3cret").doesNotContain("<script>")
                    .doesNotContain("bad secret");
        });
    }

    @Test
    void whenInvalidClientThenTheCodeIsNamed() {
        answers.set(n -> Answer.json(401, "{\"error\":\"invalid_client\"}"));

        assertThatThrownBy(tokens()::token).hasMessageContaining("invalid_client");
    }

    @Test
    void whenExpiresInAbsurdThenNoOverflowAndTokenUsed() {
        answers.set(n -> Answer.json(200, "{\"access_token\":\"t" + n + "\",\"token_type\":\"Bearer\","
                + "\"expires_in\":9223372036854775807}"));
        var tokens = tokens();
        assertThat(tokens.token()).isEqualTo("t1");
        clock.advance(ClientCredentialsTokens.MAX_LIFETIME);
        assertThat(tokens.token()).isEqualTo("t2");
    }

    @Test
    void whenTokenEndpointAnswersRandomlyThenATokenOrABusinessExceptionNeverAnythingElse() {
        var random = new Random(17);
        String[] fragments = {"{", "}", "\"access_token\"", "\"token_type\"", "\"Bearer\"", "\"expires_in\"", ":",
            ",", "\"", "-1", "0", "1e308", "null", "true", "[", "]", "\\u0000", "\\n", "\"error\"",
            "\"invalid_client\"", "\"scope\"", "x", "\u00ff", " "};
        int[] statuses = {200, 200, 200, 201, 204, 302, 400, 401, 403, 404, 500, 502, 503};
        String[] types = {"application/json", "application/json; charset=UTF-8", "text/plain", "", "x/y;;"};
        var tokens = tokens();
        int issued = 0;
        int refused = 0;
        for (int i = 0; i < 300; i++) {
            var body = new StringBuilder();
            if (random.nextInt(4) == 0) {
                body.append("{\"access_token\":\"tok").append(i).append("\",\"token_type\":\"Bearer\"");
                if (random.nextBoolean()) {
                    body.append(",\"expires_in\":").append(random.nextLong());
                }
                body.append('}');
                int cut = random.nextInt(body.length() + 1);
                body.setLength(random.nextBoolean() ? body.length() : cut);
            } else {
                int parts = random.nextInt(20);
                for (int p = 0; p < parts; p++) {
                    body.append(fragments[random.nextInt(fragments.length)]);
                }
            }
            Answer answer = new Answer(statuses[random.nextInt(statuses.length)],
                    types[random.nextInt(types.length)], body.toString().getBytes(StandardCharsets.UTF_8));
            answers.set(n -> answer);
            // past any cached token and any remembered failure
            clock.advance(Duration.ofDays(2));
            try {
                String token = tokens.token();
                assertThat(token).matches("[\\x20-\\x7E]{1,8192}");
                issued++;
            } catch (BusinessException e) {
                refused++;
                assertThat(e.problem()).as("answer %s %s", answer.status(), body)
                        .isIn(Problem.UPSTREAM, Problem.UNAVAILABLE);
            }
        }
        // the generator reaches both outcomes, so the loop tests something
        assertThat(issued).isPositive();
        assertThat(refused).isPositive();
    }

    @Test
    void whenRealOAuthServerThenItsClientCredentialsTokenIsUsed() throws Exception {
        var oauth = new MockOAuth2Server();
        oauth.start();
        try {
            var tokens = tokens(oauth.tokenEndpointUrl("gateway").uri());
            String token = tokens.token();

            var jwt = SignedJWT.parse(token);
            assertThat(jwt.getJWTClaimsSet().getSubject()).isEqualTo("atrium");
            assertThat(tokens.token()).isEqualTo(token);
            tokens.rejected(token);
            assertThat(tokens.token()).isNotEqualTo(token);
        } finally {
            oauth.shutdown();
        }
    }
}
