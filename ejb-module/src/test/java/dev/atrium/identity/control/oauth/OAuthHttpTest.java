package dev.atrium.identity.control.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.nimbusds.jose.JWSAlgorithm;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.atrium.identity.control.oauth.OAuthProvider.ClientAuthMethod;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/** The token request as a provider sees it, and how its answers become ours; against a small local HTTP server. */
class OAuthHttpTest {

    private record Seen(String authorization, Map<String, String> form) {
    }

    private HttpServer server;
    private final AtomicReference<Seen> seen = new AtomicReference<>();
    private volatile int status = 200;
    private volatile String answer = "{\"access_token\":\"at\",\"token_type\":\"Bearer\",\"id_token\":\"x.y.z\"}";
    private final OAuthHttp http = new OAuthHttp();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/token", this::token);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void token(HttpExchange exchange) throws IOException {
        var form = new LinkedHashMap<String, String>();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        seen.set(new Seen(exchange.getRequestHeaders().getFirst("Authorization"), form));
        byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private OAuthProvider provider(String secret) {
        return new OAuthProvider("acme", "client:1", Optional.ofNullable(secret), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), OAuthProvider.DEFAULT_SCOPE,
                "https://atrium.example/auth/acme/callback", Optional.empty());
    }

    private ProviderEndpoints endpoints(ClientAuthMethod method) {
        return new ProviderEndpoints(Optional.empty(), "http://127.0.0.1/authorize",
                "http://127.0.0.1:" + server.getAddress().getPort() + "/token", Optional.empty(), Optional.empty(),
                method, Set.of(JWSAlgorithm.RS256));
    }

    private void exchange(ClientAuthMethod method, String secret) {
        http.exchangeCode(provider(secret), endpoints(method), "the-code", "https://atrium.example/auth/acme/callback",
                "the-verifier");
    }

    @Test
    void whenClientSecretBasicThenTheFormEncodedCredentialsAreInTheHeaderAndNotTheBody() {
        var tokens = http.exchangeCode(provider("s3cr&t"), endpoints(ClientAuthMethod.CLIENT_SECRET_BASIC),
                "the-code", "https://atrium.example/auth/acme/callback", "the-verifier");

        assertThat(tokens.getString("access_token")).isEqualTo("at");
        var request = seen.get();
        // RFC 6749 2.3.1: client id and secret are form-encoded before Base64
        assertThat(request.authorization()).isEqualTo("Basic " + Base64.getEncoder()
                .encodeToString("client%3A1:s3cr%26t".getBytes(StandardCharsets.UTF_8)));
        assertThat(request.form()).containsExactly(Map.entry("grant_type", "authorization_code"),
                Map.entry("code", "the-code"), Map.entry("redirect_uri", "https://atrium.example/auth/acme/callback"),
                Map.entry("code_verifier", "the-verifier"));
    }

    @Test
    void whenClientSecretPostThenTheCredentialsAreInTheBody() {
        exchange(ClientAuthMethod.CLIENT_SECRET_POST, "s3cr&t");

        assertThat(seen.get().authorization()).isNull();
        assertThat(seen.get().form()).containsEntry("client_id", "client:1").containsEntry("client_secret", "s3cr&t")
                .containsEntry("code_verifier", "the-verifier");
    }

    @Test
    void whenPublicClientThenOnlyTheClientIdAndTheVerifierProveIt() {
        exchange(ClientAuthMethod.NONE, null);

        assertThat(seen.get().authorization()).isNull();
        assertThat(seen.get().form()).containsEntry("client_id", "client:1").doesNotContainKey("client_secret");
    }

    @Test
    void whenTheProviderRefusesTheCodeThen400WithOnlyTheStandardErrorCode() {
        status = 400;
        answer = "{\"error\":\"invalid_grant\",\"error_description\":\"code s3cr&t expired <b>\"}";

        assertThatThrownBy(() -> exchange(ClientAuthMethod.CLIENT_SECRET_BASIC, "s3cr&t"))
                .isInstanceOfSatisfying(BusinessException.class, e -> {
                    assertThat(e.problem()).isEqualTo(Problem.BAD_REQUEST);
                    assertThat(e.details()).isEqualTo("error: invalid_grant");
                    assertThat(e.getMessage()).doesNotContain("s3cr&t");
                });
    }

    @Test
    void whenTheProviderFailsOrAnswersNonsenseThen502() {
        for (var failure : Map.of(503, "", 200, "<html>maintenance</html>", 201, "{}").entrySet()) {
            status = failure.getKey();
            answer = failure.getValue();
            assertThatThrownBy(() -> exchange(ClientAuthMethod.CLIENT_SECRET_BASIC, "s"))
                    .as(failure.toString())
                    .isInstanceOfSatisfying(BusinessException.class,
                            e -> assertThat(e.problem()).isEqualTo(Problem.UPSTREAM));
        }
        status = 200;
        answer = "{\"token_type\":\"Bearer\"}";
        assertThatThrownBy(() -> exchange(ClientAuthMethod.CLIENT_SECRET_BASIC, "s"))
                .isInstanceOfSatisfying(BusinessException.class, e -> assertThat(e.details()).contains("access token"));
    }

    @Test
    void whenTheProviderIsUnreachableThen502() {
        server.stop(0);

        assertThatThrownBy(() -> exchange(ClientAuthMethod.CLIENT_SECRET_BASIC, "s"))
                .isInstanceOfSatisfying(BusinessException.class,
                        e -> assertThat(e.problem()).isEqualTo(Problem.UPSTREAM));
    }
}
