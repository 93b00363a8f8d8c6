package dev.atrium.it.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.atrium.it.Accounts;
import dev.atrium.it.Api;
import dev.atrium.it.AtriumServer;
import dev.atrium.it.Reply;

/**
 * Redis stops under the running server: every call that needs the key-value store answers 503 in the error envelope
 * with {@code Retry-After} (never 500), {@code /health} answers 503 naming redis, and all is well again once Redis is
 * back.
 */
@ExtendWith(AtriumServer.class)
class StoreOutageIT {

    private AtriumServer server;

    @BeforeEach
    void resilienceOnly() {
        assumeTrue(AtriumServer.get().resilience(), "needs the resilience server's own Redis");
        server = AtriumServer.get();
    }

    @Test
    void whenRedisStopsThenCallsAnswer503WithRetryAfterAndHealthNamesItUntilItIsBack() throws Exception {
        var user = Accounts.verified("store");
        assertThat(user.api().get("/api/tasks").status()).isEqualTo(200);

        server.stopRedis();
        try {
            // a bearer call (revocation list), an anonymous call (rate limit) and a login (attempt counter)
            for (Reply reply : new Reply[] {user.api().get("/api/tasks"), Api.anonymous().get("/api/v1/tags"),
                    Api.anonymous().post("/login", java.util.Map.of("email", user.email(), "password", "x"))}) {
                assertThat(reply.status()).as(reply.toString()).isEqualTo(503);
                assertThat(reply.code()).as(reply.toString()).isEqualTo(50300);
                assertThat(reply.header("Retry-After")).as(reply.toString()).isEqualTo("5");
                assertThat(reply.json().at("/error/message").asText()).isEqualTo("Service temporarily unavailable");
            }
            var health = Api.anonymous().get("/health");
            assertThat(health.status()).isEqualTo(503);
            assertThat(health.json().get("redis").asText()).isEqualTo("error");
            assertThat(health.json().get("database").asText()).isEqualTo("ok");
        } finally {
            server.startRedis();
        }

        OutboxResilienceIT.awaitTrue(() -> Api.anonymous().get("/health").status() == 200 ? Boolean.TRUE : null,
                "health recovers");
        OutboxResilienceIT.awaitTrue(() -> user.api().get("/api/tasks").status() == 200 ? Boolean.TRUE : null,
                "API calls recover");
    }
}
