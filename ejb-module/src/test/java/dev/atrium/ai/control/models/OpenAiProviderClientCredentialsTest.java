package dev.atrium.ai.control.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.concurrent.ManagedThreadFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import no.nav.security.mock.oauth2.MockOAuth2Server;

/**
 * The OpenAI-compatible provider behind a gateway that demands an OAuth 2.0 client-credentials token: tokens from a
 * real OAuth 2.0 server in the test JVM, checked by the model server against that server's signing keys.
 */
class OpenAiProviderClientCredentialsTest {

    private static final List<ChatTurn> HELLO = List.of(new ChatTurn("user", "hello"));
    private static final String ISSUER = "gateway";

    private MockOAuth2Server oauth;
    private HttpServer models;
    private JWKSet keys;
    private OpenAiProvider provider;
    /** Every bearer the model server was sent, in order. */
    private final List<String> bearers = new CopyOnWriteArrayList<>();
    /** Tokens the gateway no longer accepts although they have not expired (as after a key rotation). */
    private final Set<String> revoked = ConcurrentHashMap.newKeySet();
    private volatile boolean revokeEachFirstSight;
    private volatile boolean rejectAll;

    @BeforeEach
    void start() throws IOException {
        oauth = new MockOAuth2Server();
        oauth.start();
        models = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        models.createContext("/v1/chat/completions", this::answer);
        models.setExecutor(Executors.newCachedThreadPool());
        models.start();
        provider = new OpenAiProvider();
        provider.config = ConfigDefaults.of(AiConfig.class);
        provider.config.llmBaseUrl = Optional.of("http://127.0.0.1:" + models.getAddress().getPort() + "/v1");
        provider.config.llmApiKey = Optional.of("static-key-that-must-not-be-sent");
        provider.config.llmTokenUrl = Optional.of(oauth.tokenEndpointUrl(ISSUER).toString());
        provider.config.llmClientId = Optional.of("atrium");
        provider.config.llmClientSecret = Optional.of("s3cret");
        provider.config.llmScope = Optional.of("models");
        provider.clock = Clock.systemUTC();
        provider.threads = new ManagedThreadFactory() {
            @Override
            public Thread newThread(Runnable r) {
                var thread = new Thread(r);
                thread.setDaemon(true);
                return thread;
            }

            @Override
            public ForkJoinWorkerThread newThread(ForkJoinPool pool) {
                throw new UnsupportedOperationException();
            }
        };
        provider.init();
    }

    @AfterEach
    void stop() {
        provider.stop();
        models.stop(0);
        oauth.shutdown();
    }

    /** Answers only a bearer signed by the OAuth server for the client, not revoked; else 401. */
    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            String bearer = authorization != null && authorization.startsWith("Bearer ")
                    ? authorization.substring(7) : "";
            bearers.add(bearer);
            if (!valid(bearer)) {
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            boolean stream = request.contains("\"stream\":true");
            byte[] body = (stream
                    ? "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n"
                    : "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"hi\"}}]}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", stream ? "text/event-stream" : "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private boolean valid(String bearer) {
        if (rejectAll || revoked.contains(bearer)) {
            return false;
        }
        if (revokeEachFirstSight) {
            revoked.add(bearer);
            return false;
        }
        try {
            if (keys == null) {
                keys = JWKSet.load(oauth.jwksUrl(ISSUER).url());
            }
            var jwt = SignedJWT.parse(bearer);
            var key = (RSAKey) keys.getKeyByKeyId(jwt.getHeader().getKeyID());
            return key != null && jwt.verify(new RSASSAVerifier(key))
                    && "atrium".equals(jwt.getJWTClaimsSet().getSubject());
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void whenTokenUrlSetThenCallsCarryTheClientCredentialsTokenAndNotTheApiKey() {
        assertThat(provider.complete("m", HELLO).content()).isEqualTo("hi");
        assertThat(provider.stream("m", HELLO, delta -> { }, () -> false)).isNotNull();

        assertThat(bearers).hasSize(2).doesNotContain("static-key-that-must-not-be-sent");
        assertThat(bearers.get(0)).isEqualTo(bearers.get(1));
    }

    @Test
    void whenManyCallsAtOnceThenTheyShareOneToken() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            var ready = new CountDownLatch(1);
            List<Future<Completion>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(pool.submit(() -> {
                    ready.await();
                    return provider.complete("m", HELLO);
                }));
            }
            ready.countDown();
            for (var call : calls) {
                assertThat(call.get(20, TimeUnit.SECONDS).content()).isEqualTo("hi");
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(Set.copyOf(bearers)).hasSize(1);
    }

    @Test
    void whenProviderRejectsTheTokenThenOneNewTokenAndTheCallIsSentOnceMore() {
        assertThat(provider.complete("m", HELLO).content()).isEqualTo("hi");
        revoked.add(bearers.get(0));

        assertThat(provider.complete("m", HELLO).content()).isEqualTo("hi");
        assertThat(provider.stream("m", HELLO, delta -> { }, () -> false)).isNotNull();

        assertThat(bearers).hasSize(4);
        assertThat(bearers.get(1)).isEqualTo(bearers.get(0));
        assertThat(bearers.get(2)).isNotEqualTo(bearers.get(0));
        assertThat(bearers.get(3)).isEqualTo(bearers.get(2));
    }

    @Test
    void whenStreamingAndTheTokenIsRejectedThenRetriedOnceWithANewOne() {
        revokeEachFirstSight = true;

        assertThatThrownBy(() -> provider.stream("m", HELLO, delta -> { }, () -> false))
                .isInstanceOfSatisfying(BusinessException.class,
                        e -> assertThat(e.problem()).isEqualTo(Problem.UPSTREAM));
        // each new token was rejected once: two tries, two distinct tokens, no third
        assertThat(bearers).hasSize(2);
        assertThat(bearers.get(0)).isNotEqualTo(bearers.get(1));
    }

    @Test
    void whenProviderRejectsEveryTokenThen502AfterExactlyOneRetry() {
        rejectAll = true;

        assertThatThrownBy(() -> provider.complete("m", HELLO)).isInstanceOfSatisfying(BusinessException.class,
                e -> {
                    assertThat(e.problem()).isEqualTo(Problem.UPSTREAM);
                    assertThat(e.getMessage()).doesNotContain("s3cret").doesNotContain(bearers.get(0));
                });
        assertThat(bearers).hasSize(2);
    }

    @Test
    void whenTokenEndpointIsDownThen503NotA500() throws IOException {
        int port;
        try (var socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        provider.config.llmTokenUrl = Optional.of("http://127.0.0.1:" + port + "/token");
        provider.init();

        assertThatThrownBy(() -> provider.complete("m", HELLO)).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE));
        assertThat(bearers).isEmpty();
    }

    @Test
    void whenTokenUrlWithoutClientSecretThen503AndNothingSent() {
        provider.config.llmClientSecret = Optional.empty();
        provider.init();

        assertThatThrownBy(() -> provider.complete("m", HELLO)).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE));
        assertThat(bearers).isEmpty();
    }

    @Test
    void whenTokenUrlIsNotHttpThen503AndNothingSent() {
        provider.config.llmTokenUrl = Optional.of("file:///etc/passwd");
        provider.init();

        assertThatThrownBy(() -> provider.complete("m", HELLO)).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE));
        assertThat(bearers).isEmpty();
    }
}
