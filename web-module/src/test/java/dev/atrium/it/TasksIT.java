package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Spec 02's asynchronous tasks over HTTP on the real server: submission, polling, progress, retries, the time
 * limits (6 s and 9 s in the test server), ownership, quotas and retention. Models: {@code echo}, and the models of
 * {@link TestModelServer}, which fail, dawdle or hang on demand. Services mode only: the embedded and session
 * servers have no model server.
 */
@ExtendWith(AtriumServer.class)
class TasksIT {

    private static final Duration PATIENCE = Duration.ofSeconds(90);

    private Accounts.Account user;

    @BeforeEach
    void servicesOnly() {
        assumeFalse(AtriumServer.get().embedded(), "the model server is configured in services mode only");
        user = Accounts.verified("tasks");
    }

    @Test
    void whenATaskIsSubmittedThenItIsAcceptedAtOnceAndSucceedsWithTheAnswerAndUsage() {
        String prompt = "Summarise the quarterly report in one line";
        var reply = user.api().post("/api/tasks/submit", Map.of("prompt", prompt));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        JsonNode accepted = reply.json();
        String id = accepted.get("task_id").asText();
        assertThat(UUID.fromString(id)).isNotNull();
        assertThat(accepted.get("status").asText()).isEqualTo("submitted");
        assertThat(accepted.get("id").asText()).isEqualTo(id);
        assertThat(accepted.get("href").asText()).isEqualTo("/api/tasks/" + id);
        assertThat(reply.header("Location")).isEqualTo("/api/tasks/" + id);

        JsonNode task = awaitFinished(user.api(), id);

        assertThat(task.get("status").asText()).as(task.toString()).isEqualTo("success");
        String answer = "Echo: " + prompt;
        assertThat(task.at("/result/content").asText()).isEqualTo(answer);
        assertThat(task.at("/result/usage/input_tokens").asInt()).isEqualTo(estimate(prompt));
        assertThat(task.at("/result/usage/output_tokens").asInt()).isEqualTo(estimate(answer));
        assertThat(task.at("/result/usage/total_tokens").asInt()).isEqualTo(estimate(prompt) + estimate(answer));
        assertThat(task.get("error").isNull()).isTrue();
        assertThat(task.get("progress").isNull()).isTrue();
        assertThat(task.get("model").asText()).isEqualTo("echo");
        assertThat(task.get("attempts").asInt()).isEqualTo(1);
        assertThat(instant(task, "expires_at")).isEqualTo(instant(task, "finished_at").plusSeconds(3600));
        assertThat(task.at("/_links/self").asText()).isEqualTo("/api/tasks/" + id);

        var list = user.api().get("/api/tasks");
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.json().get("total").asInt()).isEqualTo(1);
        assertThat(list.json().at("/items/0/task_id").asText()).isEqualTo(id);
        assertThat(list.json().at("/items/0/result/content").asText()).isEqualTo(answer);
    }

    @Test
    void whenTheModelStreamsSlowlyThenProgressIsVisibleBeforeTheResult() {
        String prompt = "slow 250: one two three four five six seven eight nine ten eleven twelve thirteen";
        String id = submit(user.api(), TestModelServer.SCRIPTED, prompt);
        var seen = new ArrayList<JsonNode>();

        JsonNode task = await(user.api(), id, t -> {
            seen.add(t);
            return finished(t);
        });

        var progress = seen.stream().filter(t -> t.get("status").asText().equals("PROGRESS")).toList();
        assertThat(progress).as("statuses seen: " + seen).isNotEmpty();
        JsonNode first = progress.get(0).get("progress");
        assertThat(first.get("tokens").asInt()).isPositive();
        assertThat(first.get("content_chars").asInt()).isPositive();
        assertThat(progress.get(0).get("result").isNull()).isTrue();
        assertThat(task.get("status").asText()).as(task.toString()).isEqualTo("success");
        assertThat(task.get("progress").isNull()).isTrue();
        String answer = "Scripted: " + prompt;
        assertThat(task.at("/result/content").asText()).isEqualTo(answer);
        // the provider's own count, from the last chunk of its stream
        assertThat(task.at("/result/usage/input_tokens").asInt())
                .isEqualTo(TestModelServer.words(prompt).size());
        assertThat(task.at("/result/usage/output_tokens").asInt())
                .isEqualTo(TestModelServer.words(answer).size());
    }

    @Test
    void whenMoreTasksThanWorkersAreSubmittedThenAsManyAsTheConfiguredWorkersRunAtOnce() {
        int workers = AtriumServer.TASK_WORKERS;
        var ids = new ArrayList<String>();
        for (int i = 0; i < workers + 2; i++) {
            // over a second each: the last ones are still waiting when the first ones end
            ids.add(submit(user.api(), TestModelServer.SCRIPTED, "slow 100: task " + i + " of "
                    + UUID.randomUUID() + " runs beside the others, word by word"));
        }

        var tasks = awaitAllFinished(user.api(), ids);

        // from the moment a worker took each task to the moment it finished, however it ended: a cold server may
        // stream slower than the soft limit the first time, and a worker is free again only when its task ended.
        // Never more than the configured workers (the default, 4, would show 4 or 5); at least two, so they do run
        // side by side, where exactly three would depend on how the broker spread the messages over a busy machine
        assertThat(mostAtOnce(tasks)).as("tasks running at once: " + tasks).isBetween(2, workers);
    }

    @Test
    void whenAnotherUserAsksForATaskThenItIsNotFound() {
        String id = submit(user.api(), null, "Private notes");
        var other = Accounts.verified("other");

        assertThat(other.api().get("/api/tasks/" + id).status()).isEqualTo(404);
        assertThat(other.api().get("/api/tasks").json().get("total").asInt()).isZero();
        assertThat(user.api().get("/api/tasks/" + UUID.randomUUID()).status()).isEqualTo(404);
        assertThat(user.api().get("/api/tasks/not-a-uuid").status()).isEqualTo(404);
        assertThat(Api.anonymous().get("/api/tasks/" + id).status()).isEqualTo(401);
        assertThat(Api.anonymous().post("/api/tasks/submit", Map.of("prompt", "x")).status()).isEqualTo(401);
        assertThat(user.api().get("/api/tasks/" + id).status()).isEqualTo(200);
    }

    @Test
    void whenTheModelIsNotAllowedForTheTierOrTheRequestIsInvalidThenNothingIsSubmitted() {
        var premium = user.api().post("/api/tasks/submit", Map.of("prompt", "Hello", "model",
                TestModelServer.PREMIUM));
        assertThat(premium.status()).as(premium.toString()).isEqualTo(403);
        assertThat(premium.json().at("/error/message").asText()).contains("premium").contains("free");

        var unknown = user.api().post("/api/tasks/submit", Map.of("prompt", "Hello", "model", "no-such-model"));
        assertThat(unknown.status()).as(unknown.toString()).isEqualTo(403);
        assertThat(unknown.code()).isEqualTo(40300);
        var unknownAndInvalid = user.api().post("/api/tasks/submit", Map.of("prompt", "", "model", "no-such-model"));
        assertThat(unknownAndInvalid.status()).as("the tier's model list is checked before the body")
                .isEqualTo(403);

        var missing = user.api().post("/api/tasks/submit", Map.of("model", "echo"));
        assertThat(missing.status()).as(missing.toString()).isEqualTo(422);
        assertThat(missing.code()).isEqualTo(40001);
        assertThat(missing.json().at("/error/details").asText()).contains("prompt");

        var tooLong = user.api().post("/api/tasks/submit", Map.of("prompt", "x".repeat(10_001)));
        assertThat(tooLong.status()).as(tooLong.toString()).isEqualTo(422);

        assertThat(user.api().get("/api/tasks").json().get("total").asInt()).isZero();
        var longest = user.api().post("/api/tasks/submit", Map.of("prompt", "x".repeat(10_000)));
        assertThat(longest.status()).as(longest.toString()).isEqualTo(202);
    }

    @Test
    void whenTheModelFailsTwiceThenTheThirdAttemptSucceeds() {
        String prompt = "fail 2: then answer " + UUID.randomUUID();
        String id = submit(user.api(), TestModelServer.SCRIPTED, prompt);

        JsonNode task = awaitFinished(user.api(), id);

        assertThat(task.get("status").asText()).as(task.toString()).isEqualTo("success");
        assertThat(task.get("attempts").asInt()).isEqualTo(3);
        assertThat(task.at("/result/content").asText()).isEqualTo("Scripted: " + prompt);
        assertThat(task.get("error").isNull()).isTrue();
        assertThat(TestModelServer.calls(prompt)).isEqualTo(3);
        // two redeliveries, each 5 s after the failure before it
        assertThat(Duration.between(instant(task, "created_at"), instant(task, "started_at")))
                .isGreaterThanOrEqualTo(Duration.ofSeconds(9));
    }

    @Test
    void whenTheModelFailsEveryTimeThenTheTaskFailsAfterTwoRetries() {
        String prompt = "fail 99: never " + UUID.randomUUID();
        String id = submit(user.api(), TestModelServer.SCRIPTED, prompt);

        JsonNode task = awaitFinished(user.api(), id);

        assertThat(task.get("status").asText()).as(task.toString()).isEqualTo("failure");
        assertThat(task.get("error").asText()).isEqualTo("The language model provider answered 500");
        assertThat(task.get("attempts").asInt()).isEqualTo(3);
        assertThat(task.get("result").isNull()).isTrue();
        assertThat(TestModelServer.calls(prompt)).isEqualTo(3);
    }

    @Test
    void whenTheModelDoesNotAnswerWithinTheHardLimitThenTheTaskIsAbandonedAsAFailure() {
        String prompt = "late: " + UUID.randomUUID();
        String id = submit(user.api(), TestModelServer.SCRIPTED, prompt);

        JsonNode task = awaitFinished(user.api(), id);

        assertThat(task.get("status").asText()).as(task.toString()).isEqualTo("failure");
        assertThat(task.get("error").asText()).isEqualTo("hard time limit exceeded");
        assertThat(task.get("attempts").asInt()).as("a time limit is not retried").isEqualTo(1);
        assertThat(Duration.between(instant(task, "started_at"), instant(task, "finished_at")))
                .isGreaterThanOrEqualTo(Duration.ofSeconds(AtriumServer.TASK_HARD_LIMIT_SECONDS));
        assertThat(TestModelServer.calls(prompt)).isEqualTo(1);
    }

    @Test
    void whenTheModelFallsSilentPastTheSoftLimitThenItsStreamIsCancelledAndTheTaskFails() {
        String prompt = "silent: " + UUID.randomUUID();
        String id = submit(user.api(), TestModelServer.SCRIPTED, prompt);

        JsonNode task = awaitFinished(user.api(), id);

        // the read that waited on the silent provider was ended at the soft limit, before the hard one
        assertThat(task.get("status").asText()).as(task.toString()).isEqualTo("failure");
        assertThat(task.get("error").asText()).isEqualTo("soft time limit exceeded");
        assertThat(task.get("attempts").asInt()).isEqualTo(1);
        assertThat(Duration.between(instant(task, "started_at"), instant(task, "finished_at")))
                .isGreaterThanOrEqualTo(Duration.ofSeconds(AtriumServer.TASK_SOFT_LIMIT_SECONDS));
    }

    @Test
    void whenTheRetentionHasPassedThenTheTaskIsGoneAndTheCleanupDeletesIt() throws Exception {
        String id = submit(user.api(), null, "Short-lived");
        JsonNode task = awaitFinished(user.api(), id);
        assertThat(task.get("status").asText()).isEqualTo("success");
        assertThat(user.api().post("/api/admin/tasks/cleanup").status()).isEqualTo(403);

        try (var clock = ServerClock.borrowed()) {
            // a minute before the end of the retention, with a minute of real time to spare for the checks
            clock.advance(Duration.between(clock.now(), instant(task, "expires_at")).minusSeconds(60));
            // the access tokens of an hour ago have expired
            Api owner = relogin(user);
            assertThat(owner.get("/api/tasks/" + id).status()).isEqualTo(200);
            assertThat(rows(id)).isEqualTo(1);

            clock.advance(Duration.ofSeconds(61));
            assertThat(owner.get("/api/tasks/" + id).status()).isEqualTo(404);
            assertThat(owner.get("/api/tasks").json().get("total").asInt()).isZero();
            assertThat(rows(id)).as("hidden, but kept until the cleanup runs").isEqualTo(1);

            var cleanup = Accounts.admin().api().post("/api/admin/tasks/cleanup");
            assertThat(cleanup.status()).as(cleanup.toString()).isEqualTo(200);
            assertThat(cleanup.json().get("deleted").asInt()).isPositive();
            assertThat(rows(id)).isZero();
        }
    }

    private static Api relogin(Accounts.Account account) {
        return Accounts.login(Api.anonymous(), account.email(), account.username()).api();
    }

    private static String submit(Api api, String model, String prompt) {
        var body = new HashMap<String, String>();
        body.put("prompt", prompt);
        if (model != null) {
            body.put("model", model);
        }
        var reply = api.post("/api/tasks/submit", body);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        return reply.json().get("task_id").asText();
    }

    private static JsonNode awaitFinished(Api api, String id) {
        return await(api, id, TasksIT::finished);
    }

    private static boolean finished(JsonNode task) {
        return List.of("success", "failure").contains(task.get("status").asText());
    }

    /** Polls the task (gently: the API allows 100 requests a minute per user) until {@code until} holds. */
    private static JsonNode await(Api api, String id, Predicate<JsonNode> until) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            var reply = api.get("/api/tasks/" + id);
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            last = reply.json();
            if (until.test(last)) {
                return last;
            }
            Accounts.sleep(400);
        }
        throw new AssertionError("Task " + id + " did not get there within " + PATIENCE + "; last seen: " + last);
    }

    /** Polls the caller's task list (one request for all of them) until every one of {@code ids} has finished. */
    private static List<JsonNode> awaitAllFinished(Api api, List<String> ids) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            var reply = api.get("/api/tasks");
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            last = reply.json();
            var finished = new ArrayList<JsonNode>();
            last.get("items").forEach(t -> {
                if (ids.contains(t.get("task_id").asText()) && finished(t)) {
                    finished.add(t);
                }
            });
            if (finished.size() == ids.size()) {
                return finished;
            }
            Accounts.sleep(400);
        }
        throw new AssertionError("Tasks " + ids + " did not all finish within " + PATIENCE + "; last seen: " + last);
    }

    /** The most tasks whose run, from its start to its end (excluded), covers one instant. */
    private static int mostAtOnce(List<JsonNode> tasks) {
        var changes = new ArrayList<Map.Entry<Instant, Integer>>();
        for (JsonNode task : tasks) {
            changes.add(Map.entry(instant(task, "started_at"), 1));
            changes.add(Map.entry(instant(task, "finished_at"), -1));
        }
        // at one instant an end comes before a start: a worker's next task begins after its last one ended
        changes.sort(Map.Entry.<Instant, Integer>comparingByKey().thenComparing(Map.Entry.comparingByValue()));
        int running = 0;
        int most = 0;
        for (var change : changes) {
            running += change.getValue();
            most = Math.max(most, running);
        }
        return most;
    }

    private static int rows(String id) throws Exception {
        var server = AtriumServer.get();
        try (var c = DriverManager.getConnection(server.jdbcUrl(), AtriumServer.Services.postgresUser(), "");
             var q = c.prepareStatement("SELECT count(*) FROM tasks WHERE id = ?")) {
            q.setObject(1, UUID.fromString(id));
            try (var r = q.executeQuery()) {
                r.next();
                return r.getInt(1);
            }
        }
    }

    private static Instant instant(JsonNode task, String field) {
        return Instant.parse(task.get(field).asText());
    }

    /** The platform's token estimate for text no tokenizer has seen: about four characters per token. */
    private static int estimate(String text) {
        return Math.max(1, (text.length() + 3) / 4);
    }
}
