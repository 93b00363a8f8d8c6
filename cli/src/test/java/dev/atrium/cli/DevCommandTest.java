package dev.atrium.cli;

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
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import picocli.CommandLine.Help.Ansi;

import dev.atrium.sdk.AtriumClient;

/**
 * {@code agent dev} for real: the command runs in this process on a free port, and calls reach it over HTTP, from a
 * plain client, from {@code agent invoke} and from the SDK, and run the agent in the sandbox.
 */
class DevCommandTest {

    @TempDir
    Path home;

    private Path agent;
    private Thread thread;
    private StringWriter out;
    private StringWriter err;
    private volatile int exitCode = -1;
    private int port;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void startDev() throws Exception {
        var init = new CliRun(home).run("init", "counter", "-C", home.toString());
        assertThat(init.exitCode()).as(init.err()).isZero();
        agent = home.resolve("counter");
        out = new StringWriter();
        err = new StringWriter();
        var env = new Environment(Map.of(), home, new PrintWriter(out, true), new PrintWriter(err, true),
                new ByteArrayInputStream(new byte[0]), Ansi.OFF);
        thread = new Thread(() -> exitCode = AgentCli.run(env, "dev", "-C", agent.toString(), "--port", "0",
                "--json"));
        thread.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!out.toString().contains("\"port\"") && thread.isAlive() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(out.toString()).as(err.toString()).contains("\"port\"");
        port = Output.JSON.readTree(out.toString()).path("port").asInt();
    }

    @AfterEach
    void stopDev() throws Exception {
        thread.interrupt();
        thread.join(10_000);
        assertThat(thread.isAlive()).isFalse();
        assertThat(exitCode).isZero();
    }

    private HttpResponse<String> post(String path, byte[] body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> invoke(String body) throws Exception {
        return post("/v1/agents/counter/invoke", body.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return Output.JSON.readTree(response.body());
    }

    @Test
    void whenTheAgentIsCalledAtTheInvokePathThenItRunsInTheSandboxAndAnswersAsTheServer() throws Exception {
        var response = invoke("{\"text\": \"one two three\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).path("words").asInt()).isEqualTo(3);
        var headers = response.headers();
        assertThat(headers.firstValue("Atrium-Run-Status")).hasValue("succeeded");
        assertThat(headers.firstValue("Atrium-Agent-Version")).hasValue("0.1.0");
        assertThat(headers.firstValue("Atrium-Run-Id")).get().asString().startsWith("local-");
        assertThat(headers.firstValue("Atrium-Price-Usd")).hasValue("0.000000");
        assertThat(headers.firstValue("Atrium-Duration-Ms")).isPresent();
        assertThat(err.toString()).contains("POST /v1/agents/counter/invoke → 200 succeeded", "| counted 3 words");
    }

    @Test
    void whenTheCliAndTheSdkCallTheDevServerThenTheyGetTheRunAsFromTheServer() {
        var cli = new CliRun(home).with("ATRIUM_BASE_URL", "http://127.0.0.1:" + port).with("ATRIUM_API_KEY", "dev")
                .run("invoke", "counter", "--input", "{\"text\": \"a b\"}");
        assertThat(cli.exitCode()).as(cli.err()).isZero();
        assertThat(cli.out()).contains("\"words\" : 2");
        assertThat(cli.err()).contains("succeeded", "version 0.1.0");

        var sdk = AtriumClient.builder("http://127.0.0.1:" + port, "dev").build();
        var run = sdk.invoke("counter", Output.JSON.createObjectNode().put("text", "x y z w"));
        assertThat(run.succeeded()).isTrue();
        assertThat(run.output().path("characters").asInt()).isEqualTo(7);
    }

    @Test
    void whenTheFilesChangeThenTheNextCallRunsWhatIsOnDisk() throws Exception {
        Files.writeString(agent.resolve("main.py"), """
                import json, sys
                json.load(sys.stdin)
                print(json.dumps({"output": {"words": 42, "characters": 0}}))
                """);
        assertThat(json(invoke("{\"text\": \"a\"}")).path("words").asInt()).isEqualTo(42);

        Files.writeString(agent.resolve("agent.json"), "{ not json");
        var broken = invoke("{\"text\": \"a\"}");
        assertThat(broken.statusCode()).isEqualTo(503);
        assertThat(json(broken).path("error").path("details").asText()).contains("agent.json is not JSON");

        assertThat(new CliRun(home).run("init", "fixed", "-C", home.toString()).exitCode()).isZero();
        Files.writeString(agent.resolve("agent.json"), Files.readString(home.resolve("fixed/agent.json"))
                .replace("\"fixed\"", "\"counter\"").replace("0.1.0", "0.2.0"));
        var fixed = invoke("{\"text\": \"a\"}");
        assertThat(fixed.statusCode()).isEqualTo(200);
        assertThat(fixed.headers().firstValue("Atrium-Agent-Version")).hasValue("0.2.0");
        assertThat(err.toString()).contains("cannot reload", "reloaded counter 0.2.0");
    }

    @Test
    void whenTheRunFailsOnTheAgentsSideThenTheAnswerIs200WithTheGatewaysErrorText() throws Exception {
        Files.writeString(agent.resolve("main.py"), "import sys\nsys.stderr.write('boom\\n')\nsys.exit(4)\n");

        var response = invoke("{\"text\": \"a\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Atrium-Run-Status")).hasValue("failed");
        assertThat(json(response).path("error").asText()).isEqualTo("The agent exited with code 4");
        assertThat(err.toString()).contains("| boom");
    }

    static Stream<Arguments> hostileRequests() {
        String deep = "{\"a\":".repeat(70) + "1" + "}".repeat(70);
        return Stream.of(
                Arguments.of("malformed", "/v1/agents/counter/invoke", "{\"text\": ", 400, 40000),
                Arguments.of("empty body", "/v1/agents/counter/invoke", "", 400, 40000),
                Arguments.of("trailing garbage", "/v1/agents/counter/invoke", "{\"text\": \"a\"} x", 400, 40000),
                Arguments.of("nested past 64", "/v1/agents/counter/invoke", deep, 400, 40000),
                Arguments.of("an array", "/v1/agents/counter/invoke", "[1]", 422, 40001),
                Arguments.of("a string", "/v1/agents/counter/invoke", "\"text\"", 422, 40001),
                Arguments.of("wrong type", "/v1/agents/counter/invoke", "{\"text\": 42}", 422, 40001),
                Arguments.of("missing field", "/v1/agents/counter/invoke", "{}", 422, 40001),
                Arguments.of("over 1 MiB", "/v1/agents/counter/invoke",
                        "{\"text\": \"" + "a".repeat(1024 * 1024) + "\"}", 413, 41300),
                Arguments.of("another agent", "/v1/agents/other/invoke", "{\"text\": \"a\"}", 404, 40400),
                Arguments.of("an escaping name", "/v1/agents/..%2F..%2Fetc/invoke", "{\"text\": \"a\"}", 404, 40400),
                Arguments.of("another path", "/v1/agents", "{}", 404, 40400),
                Arguments.of("another major", "/v1/agents/counter/invoke?version=1", "{\"text\": \"a\"}", 404,
                        40400));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileRequests")
    void whenTheRequestIsHostileThenItIsRefusedInTheEnvelope(String name, String path, String body, int status,
                                                           int code) throws Exception {
        var response = post(path, body.getBytes(StandardCharsets.UTF_8));

        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(json(response).path("error").path("code").asInt()).isEqualTo(code);
        if (status == 422) {
            assertThat(json(response).path("valid").asBoolean(true)).isFalse();
        }
    }

    @Test
    void whenTheInputBreaksTheSchemaThenTheDetailsNameTheFieldAsTheGatewayDoes() throws Exception {
        var response = invoke("{\"text\": 42}");

        assertThat(json(response).path("error").path("details").asText()).startsWith("/text: ");
    }

    @Test
    void whenTheMethodIsNotPostThenItIs405() throws Exception {
        var response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/v1/agents/counter/invoke")).GET().build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).hasValue("POST");
    }

    @Test
    void whenBodiesAreRandomThenEveryAnswerIsAnEnvelopeOrARunAndTheServerStaysUp() throws Exception {
        var random = new Random(20261125L);
        String[] seeds = {"{\"text\": \"a b\"}", "{\"text\": \"\"}", "[]", "{\"text\": [\"a\"]}", "null", "{}"};
        var allowed = Set.of(200, 400, 413, 422);
        for (int i = 0; i < 150; i++) {
            byte[] body = seeds[random.nextInt(seeds.length)].getBytes(StandardCharsets.UTF_8);
            int edits = 1 + random.nextInt(4);
            for (int e = 0; e < edits && body.length > 0; e++) {
                body[random.nextInt(body.length)] = (byte) random.nextInt(256);
            }
            var response = post("/v1/agents/counter/invoke", body);
            assertThat(response.statusCode()).as("body %s", new String(body, StandardCharsets.ISO_8859_1))
                    .isIn(allowed);
            var answer = json(response);
            if (response.statusCode() != 200) {
                assertThat(answer.path("error").path("code").asInt()).isPositive();
            } else {
                assertThat(answer.isObject()).isTrue();
            }
        }
        assertThat(invoke("{\"text\": \"still up\"}").statusCode()).isEqualTo(200);
    }

    @Test
    void whenThePortIsTakenThenItSaysSoAndExitsOne() {
        var result = new CliRun(home).run("dev", "-C", agent.toString(), "--port", Integer.toString(port));

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).contains("Cannot listen on 127.0.0.1:" + port, "--port");
    }

    @Test
    void whenTheDirectoryHoldsNoAgentThenItSaysSoAndExitsOne() {
        var result = new CliRun(home).run("dev", "-C", home.toString(), "--port", "0");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).contains("No agent.json in " + home);
    }
}
