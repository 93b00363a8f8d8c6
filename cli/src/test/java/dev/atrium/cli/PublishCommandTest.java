package dev.atrium.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.atrium.sdk.StubServer;
import dev.atrium.sdk.StubServer.Answer;

class PublishCommandTest {

    private static final Path CARD_SCHEMA = Path.of("..", "ejb-module", "src", "main", "resources", "marketplace",
            "agent-card.schema.json");

    @TempDir
    Path home;

    private final AtomicInteger polls = new AtomicInteger();

    private StubServer server(String submission, String finalState) throws Exception {
        String schema = Files.readString(CARD_SCHEMA);
        return new StubServer((request, n) -> switch (request.path()) {
            case "/v1/schemas/agent-card" -> Answer.json(200, schema);
            case "/v1/agents" -> submission.startsWith("{\"status\":\"rejected\"") ? Answer.json(422, submission)
                    : submission.startsWith("{\"error\"") ? Answer.json(409, submission) : Answer.json(202, submission);
            case "/v1/agents/a1/versions" -> Answer.json(200, "{\"items\":[{\"version\":\"0.1.0\",\"review_state\":\""
                    + (polls.incrementAndGet() < 3 ? "pending_review" : finalState) + "\"}]}");
            default -> Answer.json(404, "{}");
        });
    }

    private CliRun cli(StubServer server) {
        return new CliRun(home).with("ATRIUM_BASE_URL", server.url()).with("ATRIUM_API_KEY", "sk-good");
    }

    private Path agent() {
        var init = new CliRun(home).run("init", "word-count", "-C", home.toString());
        assertThat(init.exitCode()).as(init.err()).isZero();
        return home.resolve("word-count");
    }

    private static final String PENDING = "{\"status\":\"pending_review\",\"agent_id\":\"a1\",\"estimated_review\":"
            + "\"24h\",\"checks\":{\"smoke_tests\":{\"status\":\"passed\"}}}";

    @Test
    void whenPublishedThenTheCardAndBundleAreSentAndThePendingReviewShown() throws Exception {
        Path dir = agent();
        try (var server = server(PENDING, "approved")) {
            var result = cli(server).run("publish", "-C", dir.toString());

            assertThat(result.exitCode()).as(result.err()).isZero();
            assertThat(result.out()).contains("Submitted word-count 0.1.0", "pending review", "agent a1",
                    "check smoke_tests: passed");
            assertThat(result.err()).contains("Uploaded");
            var post = server.requests.stream().filter(r -> r.method().equals("POST")).findFirst().orElseThrow();
            assertThat(post.header("Content-Type")).startsWith("multipart/form-data; boundary=");
            assertThat(post.header("Authorization")).isEqualTo("Bearer sk-good");
            assertThat(post.body()).contains("name=\"card\"", "\"name\" : \"word-count\"",
                    "name=\"bundle\"; filename=\"bundle.tar.gz\"");
        }
    }

    @Test
    void whenTheCardBreaksTheSchemaThenEveryErrorWithItsPointerAndNothingIsUploaded() throws Exception {
        Path dir = agent();
        var card = (com.fasterxml.jackson.databind.node.ObjectNode) Output.JSON.readTree(dir.resolve("agent.json")
                .toFile());
        card.put("name", "Not A Slug");
        card.remove("description");
        ((com.fasterxml.jackson.databind.node.ObjectNode) card.get("runtime")).put("timeout_s", 999);
        Files.writeString(dir.resolve("agent.json"), card.toString());
        try (var server = server(PENDING, "approved")) {
            var result = cli(server).run("publish", "-C", dir.toString());

            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(result.err()).contains("card /name:", "card /description:", "card /runtime/timeout_s:");
            assertThat(server.requests).noneMatch(r -> r.method().equals("POST"));
        }
    }

    @Test
    void whenTheServerRejectsThenItsErrorsArePrintedWithPointers() throws Exception {
        Path dir = agent();
        try (var server = server("{\"status\":\"rejected\",\"errors\":[{\"part\":\"smoke_tests\",\"pointer\":"
                + "\"/test_cases/1\",\"message\":\"expected words 0, got 1\"}]}", "approved")) {
            var result = cli(server).run("publish", "-C", dir.toString());

            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(result.err()).contains("smoke_tests /test_cases/1: expected words 0, got 1");
        }
    }

    @Test
    void whenTheServerRefusesTheVersionThenExitOneWithItsMessage() throws Exception {
        Path dir = agent();
        try (var server = server("{\"error\":{\"code\":40900,\"message\":\"The version must be higher than "
                + "0.1.0\"}}", "approved")) {
            var result = cli(server).run("publish", "-C", dir.toString());

            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(result.err()).contains("must be higher", "HTTP 409");
        }
    }

    @Test
    void whenWaitingThenTheReviewIsFollowedToItsDecision() throws Exception {
        Path dir = agent();
        try (var server = server(PENDING, "rejected")) {
            var result = cli(server).run("publish", "-C", dir.toString(), "--wait", "--poll", "PT0.01S");

            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(result.out()).contains("Review: rejected");
            assertThat(polls.get()).isEqualTo(3);
        }
    }

    @Test
    void whenThereIsNoCardThenExitOneWithAHint() throws Exception {
        try (var server = server(PENDING, "approved")) {
            var result = cli(server).run("publish", "-C", home.toString());

            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(result.err()).contains("No agent.json", "agent init");
        }
    }
}
