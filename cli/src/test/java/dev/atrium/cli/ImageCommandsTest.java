package dev.atrium.cli;

import static dev.atrium.sandbox.TestImages.E;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine.Help.Ansi;

import dev.atrium.sandbox.TestImages;
import dev.atrium.sdk.StubServer;
import dev.atrium.sdk.StubServer.Answer;

/**
 * {@code agent test}, {@code agent dev} and {@code agent publish} with {@code --image}: an image archive built here
 * from Debian's static busybox (busybox-static) and the shell template's script, run in the sandbox on its own root.
 */
class ImageCommandsTest {

    private static final Path CARD_SCHEMA = Path.of("..", "ejb-module", "src", "main", "resources", "marketplace",
            "agent-card.schema.json");

    @TempDir
    Path home;

    private Path dir;
    private Path image;

    @BeforeEach
    void agentAndImage() throws Exception {
        var init = new CliRun(home).run("init", "greeter", "--template", "shell", "-C", home.toString());
        assertThat(init.exitCode()).as(init.err()).isZero();
        dir = home.resolve("greeter");
        var card = (ObjectNode) Output.JSON.readTree(dir.resolve("agent.json").toFile());
        var runtime = (ObjectNode) card.get("runtime");
        runtime.remove("entrypoint");
        runtime.put("docker_image", "greeter:" + card.path("version").asText());
        Files.writeString(dir.resolve("agent.json"), card.toPrettyString());
        byte[] script = Files.readAllBytes(dir.resolve("main.sh"));
        image = home.resolve("greeter.tar");
        Files.write(image, TestImages.busybox(List.of(E.d("app"), E.f("app/main.sh", script, 0755)),
                "{\"Entrypoint\":[\"/bin/sh\",\"/app/main.sh\"],\"WorkingDir\":\"/app\",\"Env\":[\"PATH=/bin\"]}"));
    }

    @Test
    void whenTheTestCasesRunOnTheImageThenAllPass() {
        var result = new CliRun(home).run("test", "-C", dir.toString(), "--image", image.toString());

        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        assertThat(result.out()).contains("3 passed, 0 failed");
    }

    @Test
    void whenTheImageHasNoCommandAndTheCardNoneThenItSaysSo() throws Exception {
        Files.write(image, TestImages.busybox(List.of(E.f("app/main.sh", "exit 0")), "{}"));
        var result = new CliRun(home).run("test", "-C", dir.toString(), "--image", image.toString());
        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).contains("names a command");
    }

    @Test
    void whenTheArchiveIsNoImageOrHostileThenNothingRunsAndTheReasonIsShown() throws Exception {
        Path bundle = home.resolve("bundle.tar.gz");
        Files.write(bundle, TestImages.gzip(TestImages.layer(E.f("main.sh", "echo"))));
        var notImage = new CliRun(home).run("test", "-C", dir.toString(), "--image", bundle.toString());
        assertThat(notImage.exitCode()).isEqualTo(1);
        assertThat(notImage.err()).contains("is not an image archive");

        Files.write(image, TestImages.busybox(List.of(E.s("lib", "/"), E.f("lib/etc/evil", "x")), "{}"));
        var hostile = new CliRun(home).run("test", "-C", dir.toString(), "--image", image.toString());
        assertThat(hostile.exitCode()).isEqualTo(1);
        assertThat(hostile.err()).contains("The image would be refused", "through the symbolic link lib");
    }

    @Test
    void whenTheImageIsServedByAgentDevThenAnInvokeRunsIt() throws Exception {
        var out = new StringWriter();
        var err = new StringWriter();
        var env = new Environment(Map.of(), home, new PrintWriter(out, true), new PrintWriter(err, true),
                new ByteArrayInputStream(new byte[0]), Ansi.OFF);
        int[] exit = {-1};
        var thread = new Thread(() -> exit[0] = AgentCli.run(env, "dev", "-C", dir.toString(), "--image",
                image.toString(), "--port", "0", "--json"));
        thread.start();
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!out.toString().contains("\"port\"") && thread.isAlive() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(out.toString()).as(err.toString()).contains("\"port\"");
            int port = Output.JSON.readTree(out.toString()).path("port").asInt();
            var response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + port + "/v1/agents/greeter/invoke")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"Ada\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(Output.JSON.readTree(response.body()).path("greeting").asText()).isEqualTo("Hello, Ada!");
            assertThat(response.headers().firstValue("Atrium-Run-Status")).hasValue("succeeded");
        } finally {
            thread.interrupt();
            thread.join(10_000);
        }
        assertThat(exit[0]).isZero();
    }

    @Test
    void whenPublishedWithAnImageThenTheArchiveIsUploadedAsTheBundle() throws Exception {
        String schema = Files.readString(CARD_SCHEMA);
        try (var server = new StubServer((request, n) -> switch (request.path()) {
            case "/v1/schemas/agent-card" -> Answer.json(200, schema);
            case "/v1/agents" -> Answer.json(202, "{\"status\":\"pending_review\",\"agent_id\":\"a1\","
                    + "\"estimated_review\":\"24h\",\"checks\":{\"image_scan\":{\"status\":\"passed\"}}}");
            default -> Answer.json(404, "{}");
        })) {
            var result = new CliRun(home).with("ATRIUM_BASE_URL", server.url()).with("ATRIUM_API_KEY", "sk-good")
                    .run("publish", "-C", dir.toString(), "--image", image.toString());

            assertThat(result.exitCode()).as(result.err()).isZero();
            assertThat(result.out()).contains("Submitted greeter", "image archive, " + Files.size(image) + " bytes",
                    "check image_scan: passed");
            var post = server.requests.stream().filter(r -> r.method().equals("POST")).findFirst().orElseThrow();
            assertThat(post.body()).contains("name=\"bundle\"; filename=\"image.tar\"",
                    "Content-Type: application/x-tar", "manifest.json");
        }
    }

    @Test
    void whenPublishedWithSomethingElseThenNothingIsUploaded() throws Exception {
        String schema = Files.readString(CARD_SCHEMA);
        Path text = home.resolve("notes.txt");
        Files.writeString(text, "not an image");
        try (var server = new StubServer((request, n) -> request.path().equals("/v1/schemas/agent-card")
                ? Answer.json(200, schema) : Answer.json(500, "{}"))) {
            var result = new CliRun(home).with("ATRIUM_BASE_URL", server.url()).with("ATRIUM_API_KEY", "sk-good")
                    .run("publish", "-C", dir.toString(), "--image", text.toString());

            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(result.err()).contains("is not an image archive");
            assertThat(server.requests).noneMatch(r -> r.method().equals("POST"));
        }
        assertThat(new String(Files.readAllBytes(text), StandardCharsets.UTF_8)).isEqualTo("not an image");
    }
}
