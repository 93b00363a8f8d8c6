package dev.atrium.it.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.atrium.it.Accounts;
import dev.atrium.it.Api;
import dev.atrium.it.AtriumServer;
import dev.atrium.it.Reply;
import dev.atrium.it.WebSocketHandshake;
import redis.clients.jedis.Jedis;

/**
 * Redis stops under the running server: every call that needs the key-value store answers 503 in the error envelope
 * with {@code Retry-After} (never 500), {@code /health} answers 503 naming redis, so does the readiness probe while the
 * liveness probe stays up, and all is well again once Redis is back. Each failed request leaves one WARNING line with
 * its id in the server's log, and no stack trace.
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

        int logLinesBefore = Files.readAllLines(server.serverLog(), StandardCharsets.ISO_8859_1).size();
        List<String> requestIds = new ArrayList<>();
        server.stopRedis();
        try {
            // a bearer call (revocation list), an anonymous call (rate limit), a login (attempt counter, in an
            // enterprise bean), and the chat WebSocket's handshake with its token in the header and in the URL
            for (Reply reply : new Reply[] {user.api().get("/api/tasks"), Api.anonymous().get("/api/v1/tags"),
                    Api.anonymous().post("/login", java.util.Map.of("email", user.email(), "password", "x")),
                    WebSocketHandshake.send("/ws/chat/" + user.id(), user.accessToken()),
                    WebSocketHandshake.send("/ws/chat/" + user.id() + "?token=" + user.accessToken(), null)}) {
                assertThat(reply.status()).as(reply.toString()).isEqualTo(503);
                assertThat(reply.code()).as(reply.toString()).isEqualTo(50300);
                assertThat(reply.header("Retry-After")).as(reply.toString()).isEqualTo("5");
                assertThat(reply.json().at("/error/message").asText()).isEqualTo("Service temporarily unavailable");
                requestIds.add(reply.header("X-Request-ID"));
            }
            var health = Api.anonymous().get("/health");
            assertThat(health.status()).isEqualTo(503);
            assertThat(health.json().get("redis").asText()).isEqualTo("error");
            assertThat(health.json().get("database").asText()).isEqualTo("ok");
            // the orchestrator takes the instance out of service but does not restart it: a restart brings no Redis
            var ready = Api.anonymous().get("/health/ready");
            assertThat(ready.status()).isEqualTo(503);
            assertThat(ready.json().get("status").asText()).isEqualTo("DOWN");
            assertThat(ready.json().get("checks")).anySatisfy(check -> {
                assertThat(check.get("name").asText()).isEqualTo("redis");
                assertThat(check.get("status").asText()).isEqualTo("DOWN");
            });
            var live = Api.anonymous().get("/health/live");
            assertThat(live.status()).isEqualTo(200);
            assertThat(live.json().get("status").asText()).isEqualTo("UP");
        } finally {
            server.startRedis();
        }

        OutboxResilienceIT.awaitTrue(() -> Api.anonymous().get("/health").status() == 200 ? Boolean.TRUE : null,
                "health recovers");
        OutboxResilienceIT.awaitTrue(() -> user.api().get("/api/tasks").status() == 200 ? Boolean.TRUE : null,
                "API calls recover");

        loggedOnceEach(requestIds, logLinesBefore);
    }

    /** The store answers, but a counter a limit reads inside an enterprise bean (the day's chat tokens) is damaged. */
    @Test
    void whenACounterReadInsideAnEnterpriseBeanIsDamagedThen503AndOneLogLine() throws Exception {
        var user = Accounts.verified("counter");
        assertThat(user.api().post("/api/chat/completions", Map.of("message", "hi")).status()).isEqualTo(200);
        int logLinesBefore = Files.readAllLines(server.serverLog(), StandardCharsets.ISO_8859_1).size();
        try (var redis = new Jedis(URI.create(server.redisUrl()))) {
            var counters = redis.keys("quota:tokens:" + user.id() + ":*");
            assertThat(counters).hasSize(1);
            String counter = counters.iterator().next();
            redis.set(counter, "lots");

            var reply = user.api().post("/api/chat/completions", Map.of("message", "hi"));
            assertThat(reply.status()).as(reply.toString()).isEqualTo(503);
            assertThat(reply.code()).isEqualTo(50300);
            assertThat(reply.header("Retry-After")).isEqualTo("5");
            assertThat(redis.get(counter)).as("the value is left as it is").isEqualTo("lots");
            loggedOnceEach(List.of(reply.header("X-Request-ID")), logLinesBefore);

            redis.del(counter);
            assertThat(user.api().post("/api/chat/completions", Map.of("message", "hi")).status()).isEqualTo(200);
        }
    }

    /** Each request's failure is one WARNING line naming its id; no bean's system exception with its stack. */
    private void loggedOnceEach(List<String> requestIds, int logLinesBefore) throws IOException {
        var lines = Files.readAllLines(server.serverLog(), StandardCharsets.ISO_8859_1);
        var during = lines.subList(logLinesBefore, lines.size());
        for (String id : requestIds) {
            assertThat(during).as("log lines of request " + id)
                    .filteredOn(line -> line.contains("request " + id + ":")).singleElement()
                    .satisfies(line -> assertThat(line).contains("WARNING").contains("Key-value store unavailable"));
        }
        assertThat(during).noneMatch(line -> line.contains("A system exception occurred"));
    }
}
