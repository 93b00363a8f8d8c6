package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The shared HTTP conventions of spec 01, as every resource shows them. */
@ExtendWith(AtriumServer.class)
class ConventionsIT {

    private final Api api = Api.anonymous();

    @Test
    void whenPathIsUnknownThen404InTheEnvelope() {
        var reply = api.get("/no/such/path");
        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.header("Content-Type")).startsWith("application/json");
        assertThat(reply.code()).isEqualTo(40400);
        assertThat(reply.json().get("error").has("details")).isTrue();
        assertThat(reply.json().get("error").has("doc_url")).isTrue();
    }

    @Test
    void whenMethodIsNotAllowedThen405InTheEnvelope() {
        var reply = api.delete("/api/v1/tags");
        assertThat(reply.status()).isEqualTo(405);
        assertThat(reply.code()).isEqualTo(40500);
    }

    @Test
    void whenContentTypeIsUnsupportedThen415() {
        var reply = api.send("POST", "/register", "email=a", "text/plain");
        assertThat(reply.status()).isEqualTo(415);
        assertThat(reply.code()).isEqualTo(41500);
    }

    @Test
    void whenRequestedFormatIsUnsupportedThen415() {
        var reply = api.header("Accept", "application/xml").get("/api/v1/articles");
        assertThat(reply.status()).isEqualTo(415);
        assertThat(reply.code()).isEqualTo(41500);
    }

    @Test
    void whenBodyIsMalformedJsonThen400() {
        var reply = api.send("POST", "/register", "{\"email\":", "application/json");
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.code()).isEqualTo(40000);
        assertThat(reply.body()).doesNotContain("Exception").doesNotContain("at org.");
    }

    @Test
    void whenBodyIsMissingThen400Or422InTheEnvelope() {
        var reply = api.send("POST", "/register", null, "application/json");
        assertThat(reply.status()).isIn(400, 422);
        assertThat(reply.json().has("error")).isTrue();
    }

    @Test
    void whenAnyResponseThenSecurityHeadersAndAnEightCharacterRequestId() {
        for (var reply : new Reply[] {api.get("/health"), api.get("/no/such/path"), api.get("/api/v1/articles"),
                api.post("/login", Map.of("email", "x@example.test", "password", "Wrong-Passw0rd"))}) {
            assertThat(reply.header("X-Request-ID")).as(reply.toString()).matches("[A-Za-z0-9_-]{8}");
            assertThat(reply.header("Content-Security-Policy"))
                    .isEqualTo("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'");
            assertThat(reply.header("X-Content-Type-Options")).isEqualTo("nosniff");
            assertThat(reply.header("X-Frame-Options")).isEqualTo("DENY");
            assertThat(reply.header("Strict-Transport-Security")).contains("max-age=31536000");
        }
        assertThat(api.get("/health").header("X-Request-ID")).isNotEqualTo(api.get("/health").header("X-Request-ID"));
    }

    @Test
    void whenProxySendsAWellFormedRequestIdThenItIsKept() {
        assertThat(api.header("X-Request-ID", "abcd1234").get("/health").header("X-Request-ID")).isEqualTo("abcd1234");
        assertThat(api.header("X-Request-ID", "<script>").get("/health").header("X-Request-ID"))
                .matches("[a-z0-9]{8}");
    }

    @Test
    void whenPreflightFromAllowedOriginThenCorsHeadersWithCredentialsAndNoWildcard() {
        var reply = api.header("Origin", AtriumServer.CORS_ORIGIN)
                .header("Access-Control-Request-Method", "PATCH")
                .header("Access-Control-Request-Headers", "Authorization, Content-Type")
                .send("OPTIONS", "/api/v1/articles", null, null);
        assertThat(reply.status()).isEqualTo(204);
        assertThat(reply.header("Access-Control-Allow-Origin")).isEqualTo(AtriumServer.CORS_ORIGIN);
        assertThat(reply.header("Access-Control-Allow-Credentials")).isEqualTo("true");
        assertThat(reply.header("Access-Control-Allow-Methods")).contains("GET", "POST", "PUT", "PATCH", "DELETE");
        assertThat(reply.header("Access-Control-Allow-Headers")).contains("Authorization", "Content-Type");

        var simple = api.header("Origin", AtriumServer.CORS_ORIGIN).get("/api/v1/articles");
        assertThat(simple.header("Access-Control-Allow-Origin")).isEqualTo(AtriumServer.CORS_ORIGIN);
        assertThat(simple.header("Access-Control-Allow-Credentials")).isEqualTo("true");
    }

    @Test
    void whenOriginIsNotAllowedThenNoCorsHeadersAndPreflightRefused() {
        var preflight = api.header("Origin", "https://evil.example.test")
                .header("Access-Control-Request-Method", "POST")
                .send("OPTIONS", "/api/v1/articles", null, null);
        assertThat(preflight.status()).isEqualTo(403);
        assertThat(preflight.header("Access-Control-Allow-Origin")).isNull();
        var simple = api.header("Origin", "https://evil.example.test").get("/api/v1/articles");
        assertThat(simple.status()).isEqualTo(200);
        assertThat(simple.header("Access-Control-Allow-Origin")).isNull();
    }

    @Test
    void whenPostCarriesMethodOverrideThenItActsAsThatMethod() {
        var account = Accounts.verified("override");
        var created = account.api().post("/api/v1/articles", Map.of("title", "Override me", "body", "Body"));
        String path = "/api/v1/articles/" + created.json().get("id").asLong();

        var patched = account.api().header("X-HTTP-Method-Override", "PATCH")
                .post(path, Map.of("title", "Overridden"));
        assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
        assertThat(patched.json().get("title").asText()).isEqualTo("Overridden");

        var deleted = account.api().header("X-HTTP-Method-Override", "DELETE").post(path);
        assertThat(deleted.status()).isEqualTo(204);
        assertThat(account.api().get(path).status()).isEqualTo(404);

        assertThat(account.api().header("X-HTTP-Method-Override", "TRACE").post(path).status()).isEqualTo(400);
        assertThat(account.api().header("X-HTTP-Method-Override", "DELETE").get(path).status()).isEqualTo(400);
    }

    @Test
    void whenApiRespondsThenRateLimitHeadersDescribeTheCallersBucket() {
        var first = api.get("/api/v1/articles");
        var second = api.get("/api/v1/articles");
        assertThat(first.header("X-RateLimit-Limit")).isEqualTo("100");
        long remaining = Long.parseLong(first.header("X-RateLimit-Remaining"));
        assertThat(Long.parseLong(second.header("X-RateLimit-Remaining"))).isEqualTo(remaining - 1);
        long reset = Long.parseLong(first.header("X-RateLimit-Reset"));
        assertThat(reset).isBetween(Instant.now().getEpochSecond(), Instant.now().getEpochSecond() + 61);
        assertThat(api.get("/no/such/path").header("X-RateLimit-Limit")).isEqualTo("100");
    }

    @Test
    void whenCallerExceedsTheLimitThen429With42900AndRetryAfter() {
        var caller = Api.anonymous();
        for (int i = 0; i < AtriumServer.LIMITED_ROUTE_LIMIT; i++) {
            assertThat(caller.get(AtriumServer.LIMITED_ROUTE).status()).isEqualTo(200);
        }
        var limited = caller.get(AtriumServer.LIMITED_ROUTE);
        assertThat(limited.status()).isEqualTo(429);
        assertThat(limited.code()).isEqualTo(42900);
        assertThat(limited.header("X-RateLimit-Limit")).isEqualTo(Integer.toString(AtriumServer.LIMITED_ROUTE_LIMIT));
        assertThat(limited.header("X-RateLimit-Remaining")).isEqualTo("0");
        assertThat(Long.parseLong(limited.header("Retry-After"))).isBetween(1L, 61L);
        // another caller, and the same caller on another route, are not affected
        assertThat(Api.anonymous().get(AtriumServer.LIMITED_ROUTE).status()).isEqualTo(200);
        assertThat(caller.get("/api/v1/articles").status()).isEqualTo(200);
    }

    @Test
    void whenAuthenticatedThenTheLimitCountsPerUserNotPerAddress() {
        var account = Accounts.verified("bucket");
        var fromA = account.api().get(AtriumServer.LIMITED_ROUTE);
        var fromB = account.api().header("X-Forwarded-For", "10.9.9.9").get(AtriumServer.LIMITED_ROUTE);
        assertThat(Long.parseLong(fromB.header("X-RateLimit-Remaining")))
                .isEqualTo(Long.parseLong(fromA.header("X-RateLimit-Remaining")) - 1);
    }

    @Test
    void whenVersionIsDeprecatedThenDeprecationSunsetAndSuccessorLink() {
        var reply = Api.anonymous().get(AtriumServer.DEPRECATED_PREFIX + "?page=1");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("Deprecation")).isEqualTo("true");
        assertThat(reply.header("Sunset")).isEqualTo("Thu, 01 Jan 2099 00:00:00 GMT");
        assertThat(reply.header("Link")).isEqualTo("</api/v2/tags>; rel=\"successor-version\"");
        assertThat(api.get("/api/v1/articles").header("Deprecation")).isNull();
    }

    @Test
    void whenVersionIsRetiredThen410WithMigrationLink() {
        var reply = api.get("/api/v0/articles");
        assertThat(reply.status()).isEqualTo(410);
        assertThat(reply.code()).isEqualTo(41000);
        assertThat(reply.header("Link")).isEqualTo("</api/v1/articles>; rel=\"successor-version\"");
        assertThat(reply.json().at("/error/details").asText()).contains("/api/v1/articles");
    }

    @Test
    void whenOptionsWithoutCorsThenNoWadlIsServed() {
        var reply = api.send("OPTIONS", "/api/v1/articles", null, null);
        assertThat(reply.header("Content-Type") == null ? "" : reply.header("Content-Type")).doesNotContain("wadl");
        assertThat(reply.body()).doesNotContain("wadl");
        assertThat(api.get("/application.wadl").status()).isEqualTo(404);
    }

    @Test
    void whenHealthIsAskedThenDatabaseAndRedisAreOk() {
        var reply = api.get("/health");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().get("database").asText()).isEqualTo("ok");
        assertThat(reply.json().get("redis").asText()).isEqualTo("ok");
        assertThat(reply.json().at("/backends/database").asText()).isEqualTo("postgresql");
        assertThat(reply.json().at("/backends/redis").asText()).isEqualTo("redis");
    }
}
