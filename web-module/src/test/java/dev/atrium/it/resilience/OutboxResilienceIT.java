package dev.atrium.it.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.UncheckedIOException;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

import dev.atrium.it.Accounts;
import dev.atrium.it.Api;
import dev.atrium.it.AtriumServer;

/**
 * Nothing is lost between the database and the broker: tasks submitted while the broker is down, and a task whose
 * server dies between the commit and the publish, each run exactly once. The resilience server has a broker of its
 * own (a real Artemis over TCP) and the crash test hook ({@code atrium.test.crash-after-commit}).
 */
@ExtendWith(AtriumServer.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OutboxResilienceIT {

    private static final Duration PATIENCE = Duration.ofSeconds(120);

    private AtriumServer server;

    @BeforeEach
    void resilienceOnly() {
        assumeTrue(AtriumServer.get().resilience(), "needs the resilience server's own broker");
        server = AtriumServer.get();
    }

    @Test
    @Order(1)
    void whenTheBrokerIsDownWhileTasksAreSubmittedThenEachCompletesExactlyOnceAfterItReturns() throws Exception {
        var user = Accounts.verified("outage");
        server.stopBroker();
        try {
            awaitTrue(() -> "error".equals(Api.anonymous().get("/health").json().path("broker").asText()),
                    "the server notices the broker is gone");
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                var reply = user.api().post("/api/tasks/submit", Map.of("prompt", "outage task " + i));
                assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
                ids.add(reply.json().get("task_id").asText());
            }
            for (String id : ids) {
                assertThat(user.api().get("/api/tasks/" + id).json().get("status").asText()).isEqualTo("submitted");
            }
            assertThat(pendingEvents()).isGreaterThanOrEqualTo(6);
            // the backlog an operator sees on /metrics is the table's
            var scrape = Api.anonymous().header("Accept", "text/plain").get("/metrics").body();
            var gauge = java.util.regex.Pattern.compile("(?m)^atrium_outbox_pending\\{[^\\n]*} (\\d+)").matcher(scrape);
            assertThat(gauge.find()).as("atrium_outbox_pending").isTrue();
            assertThat(Long.parseLong(gauge.group(1))).isGreaterThanOrEqualTo(6);

            server.startBroker();

            for (int i = 0; i < ids.size(); i++) {
                JsonNode task = awaitFinished(user.api(), ids.get(i));
                assertThat(task.get("status").asText()).as(task.toString()).isEqualTo("success");
                assertThat(task.get("attempts").asInt()).as(task.toString()).isEqualTo(1);
                assertThat(task.at("/result/content").asText()).isEqualTo("Echo: outage task " + i);
            }
            awaitTrue(() -> pendingEvents() == 0, "the outbox is drained");
        } finally {
            if (!brokerRunning()) {
                server.startBroker();
            }
        }
    }

    @Test
    @Order(2)
    void whenTheServerDiesBetweenTheCommitAndThePublishThenTheTaskStillRunsOnceAfterRestart() throws Exception {
        var user = Accounts.verified("crash");
        var admin = Accounts.admin();
        var armed = admin.api().post("/admin/test/crash-after-commit");
        assertThat(armed.status()).as(armed.toString()).isEqualTo(204);

        // the server halts after the commit, before answering
        assertThatThrownBy(() -> user.api().post("/api/tasks/submit", Map.of("prompt", "survive the crash")))
                .isInstanceOf(UncheckedIOException.class);
        assertThat(server.awaitExit(Duration.ofSeconds(60))).as("the server halted").isTrue();
        assertThat(query("SELECT t.status FROM tasks t JOIN users u ON u.id = t.user_id WHERE u.email = '"
                + user.email() + "'")).isEqualTo("submitted");
        assertThat(query("SELECT COUNT(*) FROM outbox_events WHERE sent_at IS NULL"
                + " AND event_type = 'TaskSubmitted'")).isEqualTo("1");

        server.restart();

        String id = awaitTrue(() -> {
            var list = user.api().get("/api/tasks");
            return list.status() == 200 && list.json().path("total").asInt() == 1
                    ? list.json().at("/items/0/task_id").asText() : null;
        }, "the task is listed after the restart");
        JsonNode task = awaitFinished(user.api(), id);
        assertThat(task.get("status").asText()).as(task.toString()).isEqualTo("success");
        assertThat(task.get("attempts").asInt()).as(task.toString()).isEqualTo(1);
        assertThat(task.at("/result/content").asText()).isEqualTo("Echo: survive the crash");
    }

    @Test
    @Order(3)
    void whenTheHookIsNotArmedThenSubmittingAnswersNormally() {
        var user = Accounts.verified("calm");
        var reply = user.api().post("/api/tasks/submit", Map.of("prompt", "no crash"));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        var task = awaitFinished(user.api(), reply.json().get("task_id").asText());
        assertThat(task.get("attempts").asInt()).isEqualTo(1);
    }

    private boolean brokerRunning() {
        return "ok".equals(Api.anonymous().get("/health").json().path("broker").asText());
    }

    private long pendingEvents() {
        return Long.parseLong(query("SELECT COUNT(*) FROM outbox_events WHERE sent_at IS NULL"));
    }

    private String query(String sql) {
        try (var c = DriverManager.getConnection(server.jdbcUrl(), System.getProperty("atrium.it.pg.user",
                "postgres"), ""); var s = c.createStatement(); var r = s.executeQuery(sql)) {
            return r.next() ? r.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static JsonNode awaitFinished(Api api, String id) {
        return awaitTrue(() -> {
            var reply = api.get("/api/tasks/" + id);
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            String status = reply.json().get("status").asText();
            return status.equals("success") || status.equals("failure") ? reply.json() : null;
        }, "task " + id + " finishes");
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition, String what) {
        awaitTrue(() -> condition.getAsBoolean() ? Boolean.TRUE : null, what);
    }

    /** Polls until the supplier answers non-null (asynchronous completion, not the passing of time). */
    static <T> T awaitTrue(Supplier<T> condition, String what) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            T value = condition.get();
            if (value != null) {
                return value;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Not within " + PATIENCE + ": " + what);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
