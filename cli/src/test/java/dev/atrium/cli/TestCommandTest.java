package dev.atrium.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code agent test} runs agents for real, in the bubblewrap sandbox with cgroup limits, as the server does. */
class TestCommandTest {

    @TempDir
    Path home;

    private Path init(String template) {
        var init = new CliRun(home).run("init", "counter", "--template", template, "-C", home.toString());
        assertThat(init.exitCode()).as(init.err()).isZero();
        return home.resolve("counter");
    }

    @ParameterizedTest
    @ValueSource(strings = {"python", "shell"})
    void whenTheScaffoldedTestCasesRunThenAllPass(String template) {
        Path dir = init(template);

        var result = new CliRun(home).run("test", "-C", dir.toString());

        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        assertThat(result.out()).contains("3 passed, 0 failed").containsPattern("PASS  \\w");
    }

    @Test
    void whenOneInputRunsThenItsOutputUsageDurationAndLogArePrinted() {
        Path dir = init("python");

        var result = new CliRun(home).run("test", "-C", dir.toString(), "--input", "{\"text\": \"a b c d\"}");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("\"words\" : 4");
        assertThat(result.err()).contains("succeeded", " ms", "usage {", "counted 4 words");
    }

    @Test
    void whenTheInputBreaksTheInputSchemaThenNothingRunsAndExitOne() {
        Path dir = init("python");

        var result = new CliRun(home).run("test", "-C", dir.toString(), "--input", "{\"text\": 42}");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).contains("does not match input_schema");
    }

    @Test
    void whenATestCaseExpectsWhatTheAgentDoesNotAnswerThenItFailsNamingTheDifference() throws Exception {
        Path dir = init("python");
        Path card = dir.resolve("agent.json");
        Files.writeString(card, Files.readString(card).replace("\"words\" : 2", "\"words\" : 5"));

        var result = new CliRun(home).run("test", "-C", dir.toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.out()).contains("FAIL  two words", "words: expected 5, got 2", "2 passed, 1 failed");
    }

    @Test
    void whenTheAgentBreaksTheProtocolOrCrashesThenTheRunFails() throws Exception {
        Path dir = init("python");
        Files.writeString(dir.resolve("main.py"), "import sys\nprint('not json')\n");

        var garbage = new CliRun(home).run("test", "-C", dir.toString(), "-i", "{\"text\": \"x\"}");
        assertThat(garbage.exitCode()).isEqualTo(3);
        assertThat(garbage.err()).contains("The agent's stdout is not a JSON object", "stdout: not json");

        Files.writeString(dir.resolve("main.py"), "import sys\nsys.stderr.write('boom\\n')\nsys.exit(4)\n");
        var crash = new CliRun(home).run("test", "-C", dir.toString(), "-i", "{\"text\": \"x\"}");
        assertThat(crash.exitCode()).isEqualTo(3);
        assertThat(crash.err()).contains("exited with code 4", "boom");
    }

    @Test
    void whenTheAgentRunsLongerThanItsTimeoutThenItIsStopped() throws Exception {
        Path dir = init("python");
        Path card = dir.resolve("agent.json");
        Files.writeString(card, Files.readString(card).replace("\"timeout_s\" : 10", "\"timeout_s\" : 1"));
        Files.writeString(dir.resolve("main.py"), "import time\ntime.sleep(60)\n");

        var result = new CliRun(home).run("test", "-C", dir.toString(), "-i", "{\"text\": \"x\"}");

        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.err()).contains("timed_out", "The agent timed out after 1 s");
    }

    @Test
    void whenTheAgentReachesForTheNetworkThenItHasNone() throws Exception {
        Path dir = init("python");
        Files.writeString(dir.resolve("main.py"), """
                import json, socket, sys
                try:
                    socket.create_connection(("1.1.1.1", 53), timeout=2)
                    reached = True
                except OSError:
                    reached = False
                print(json.dumps({"output": {"words": int(reached), "characters": 0}}))
                """);

        var result = new CliRun(home).run("test", "-C", dir.toString(), "-i", "{\"text\": \"x\"}");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("\"words\" : 0");
    }
}
