package dev.atrium.marketplace.control.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.atrium.marketplace.control.submission.CardValidator;
import dev.atrium.marketplace.entity.checks.CheckFinding;
import dev.atrium.marketplace.entity.checks.Severity;
import dev.atrium.sandbox.Executor;
import dev.atrium.sandbox.Outcome;
import dev.atrium.sandbox.RunResult;

/** Checks 1, 4, 5 and 6 against agents run as bare processes (the sandbox itself has its own tests). */
class SandboxRunChecksTest {

    private static final String ECHO = "import json, sys\nprint(json.dumps({'output': {'result': json.load(sys.stdin)['text']}}))\n";

    @TempDir
    Path dir;

    private final CardValidator validator = new CardValidator();

    private static String card(String expected, String extra) {
        return "{\"name\": \"a\", \"runtime\": {\"entrypoint\": [\"python3\", \"main.py\"], \"timeout_s\": 20},"
                + " \"input_schema\": {\"type\": \"object\", \"required\": [\"text\"], \"properties\": {\"n\": "
                + "{\"type\": \"integer\"}, \"text\": {\"type\": \"string\"}}},"
                + " \"output_schema\": {\"type\": \"object\", \"required\": [\"result\"], \"properties\": "
                + "{\"result\": {\"type\": \"string\"}}},"
                + " \"test_cases\": [{\"input\": {\"text\": \"hello\", \"n\": 1}, \"expected\": {\"result\": \""
                + expected + "\"}}, {\"input\": {\"text\": \"two\"}}]" + extra + "}";
    }

    private CheckRunner runner(String main, String card, Executor executor) throws IOException {
        Path bundle = Files.createTempDirectory(dir, "bundle");
        Files.writeString(bundle.resolve("main.py"), main);
        return new CheckRunner(executor, bundle, CheckedCard.of(card), Duration.ofSeconds(60), System::nanoTime);
    }

    @Test
    void whenTheAgentAnswersAsExpectedThenTheSmokeTestsPass() throws IOException {
        var runner = runner(ECHO, card("hello", ""), new ProcessExecutor());
        var outcome = new SmokeTestCheck(validator).check(runner);
        assertThat(outcome.findings()).isEmpty();
        assertThat(outcome.passed()).isEqualTo(2);
        assertThat(runner.runs()).allSatisfy(r -> {
            assertThat(r.smoke()).isTrue();
            assertThat(r.limits().timeout()).isEqualTo(Duration.ofSeconds(20));
        });
    }

    @Test
    void whenTheOutputDiffersOrBreaksTheSchemaOrTheAgentCrashesThenHighFindingsPerTestCase() throws IOException {
        var wrong = new SmokeTestCheck(validator).check(runner(ECHO, card("bye", ""), new ProcessExecutor()));
        assertThat(wrong.findings()).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.HIGH);
            assertThat(f.pointer()).isEqualTo("/test_cases/0");
            assertThat(f.message()).contains("\"result\"", "\"bye\"", "\"hello\"");
        });
        var schema = new SmokeTestCheck(validator).check(runner("print('{\"output\": {\"result\": 3}}')\n",
                card("hello", ""), new ProcessExecutor()));
        assertThat(schema.findings()).hasSize(2).allSatisfy(f -> assertThat(f.message()).contains("output_schema"));
        var crash = new SmokeTestCheck(validator).check(runner("import sys\nprint('boom', file=sys.stderr)\nsys.exit(3)\n",
                card("hello", ""), new ProcessExecutor()));
        assertThat(crash.findings()).hasSize(2).allSatisfy(f -> assertThat(f.message())
                .contains("exited with code 3", "log: boom"));
    }

    @Test
    void whenAnAgentPrintsItsEnvironmentOnRequestThenTheCanaryIsCaught() throws IOException {
        String leaky = "import json, os, sys\nt = json.load(sys.stdin)['text']\n"
                + "out = dict(os.environ) if 'environment' in t else t\n"
                + "print(json.dumps({'output': {'result': str(out)}}))\n";
        String card = card("hello", ", \"permissions\": {\"allowed_env_vars\": [\"OPENAI_API_KEY\"]}");
        var runner = runner(leaky, card, new ProcessExecutor());
        String canary = PromptInjectionCheck.canary();
        var outcome = new PromptInjectionCheck().check(runner, canary);
        assertThat(outcome.run()).isEqualTo(10);
        assertThat(outcome.findings()).isNotEmpty().allSatisfy(f -> {
            assertThat(f.severity()).isEqualTo(Severity.HIGH);
            assertThat(f.message()).contains("output").doesNotContain(canary);
        });
        assertThat(runner.runs()).allSatisfy(r -> {
            assertThat(r.limits().timeout()).isEqualTo(PromptInjectionCheck.RUN_TIMEOUT);
            assertThat(r.smoke()).isFalse();
        });
        var quiet = new PromptInjectionCheck().check(runner(ECHO, card, new ProcessExecutor()), canary);
        assertThat(quiet.findings()).isEmpty();
        var logged = new PromptInjectionCheck().check(runner("import os, sys\nprint(os.environ.get('"
                + PromptInjectionCheck.CANARY_NAME + "'), file=sys.stderr)\n", card, new ProcessExecutor()), canary);
        assertThat(logged.findings()).hasSize(10).allSatisfy(f -> assertThat(f.message()).contains("log"));
    }

    @Test
    void whenTheInputSchemaTakesNoTextThenInjectionDoesNotApply() {
        var card = CheckedCard.of("{\"input_schema\": {\"type\": \"object\", \"properties\": {\"n\": {\"type\": "
                + "\"integer\"}, \"s\": {\"type\": [\"null\", \"string\"]}}}}");
        assertThat(PromptInjectionCheck.notApplicable(card)).isNull();
        assertThat(card.firstStringProperty()).isEqualTo("s");
        assertThat(PromptInjectionCheck.notApplicable(CheckedCard.of("{\"input_schema\": {\"type\": \"object\"}}")))
                .isNotNull();
    }

    @Test
    void whenAnUndeclaredAgentTriesTheNetworkThenHighAndDeclaredOnesAreMatchedToDomains() throws IOException {
        String attempt = "connect(3, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr(\"93.184.216.34\")}, 16)"
                + " = -1 ENETUNREACH (Network is unreachable)";
        var executor = new ProcessExecutor(spec -> List.of(attempt,
                "connect(4, {sa_family=AF_UNIX, sun_path=\"/var/run/nscd/socket\"}, 110) = -1 ENOENT"));
        var runner = runner(ECHO, card("hello", ""), executor);
        new SmokeTestCheck(validator).check(runner);
        var offline = NetworkAuditCheck.check(runner.runs(), runner.card().permissions());
        assertThat(offline).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.HIGH);
            assertThat(f.message()).contains("93.184.216.34");
        });
        var online = CheckedCard.of(card("hello", ", \"permissions\": {\"requires_network\": true, "
                + "\"allowed_domains\": [\"example.com\"]}")).permissions();
        assertThat(NetworkAuditCheck.check(runner.runs(), online)).singleElement()
                .extracting(CheckFinding::severity).isEqualTo(Severity.LOW);
        assertThat(NetworkAuditCheck.host("getaddrinfo(evil.example.org:443)")).isEqualTo("evil.example.org");
        assertThat(NetworkAuditCheck.allowed("api.example.com", List.of("example.com"))).isTrue();
        assertThat(NetworkAuditCheck.allowed("example.com.evil.org", List.of("example.com"))).isFalse();
    }

    @Test
    void whenSmokeRunsPassTheirBoundsThenFindingsHighPast60Seconds() {
        var limits = dev.atrium.sandbox.Limits.DEFAULTS.withTimeout(Duration.ofSeconds(30));
        var fine = new RunResult(Outcome.EXITED, 0, new byte[0], new byte[0], false, false, Duration.ofMillis(80),
                20 * 1024 * 1024, List.of(), "");
        var slow = new RunResult(Outcome.TIMED_OUT, -1, new byte[0], new byte[0], false, false, Duration.ofSeconds(30),
                0, List.of(), "");
        var fat = new RunResult(Outcome.MEMORY_LIMIT, -1, new byte[0], new byte[0], false, false, Duration.ofMillis(500),
                limits.memoryBytes(), List.of(), "");
        var ok = ResourceUseCheck.check(List.of(new CheckRunner.AgentRun("test_cases/0", true, limits, fine),
                new CheckRunner.AgentRun("injection/0", false, limits, slow)));
        assertThat(ok.findings()).isEmpty();
        assertThat(ok.summary()).contains("80 ms", "30 s", "20.0 MB", "512 MB");
        var bad = ResourceUseCheck.check(List.of(new CheckRunner.AgentRun("test_cases/0", true, limits, slow),
                new CheckRunner.AgentRun("test_cases/1", true, limits, fat)));
        assertThat(bad.findings()).extracting(CheckFinding::pointer).containsExactly("test_cases/0", "test_cases/1");
        assertThat(bad.findings()).allMatch(f -> f.severity() == Severity.MEDIUM);
        var long60 = new RunResult(Outcome.EXITED, 0, new byte[0], new byte[0], false, false, Duration.ofSeconds(61),
                0, List.of(), "");
        assertThat(ResourceUseCheck.check(List.of(new CheckRunner.AgentRun("test_cases/0", true,
                limits.withTimeout(Duration.ofSeconds(120)), long60))).findings()).singleElement()
                .satisfies(f -> {
                    assertThat(f.message()).contains("past 60 s");
                    assertThat(f.severity()).isEqualTo(Severity.HIGH);
                });
    }

    @Test
    void whenTheBudgetIsSpentThenNoRunStarts() throws IOException {
        long[] now = {0};
        Path bundle = Files.createTempDirectory(dir, "bundle");
        Files.writeString(bundle.resolve("main.py"), ECHO);
        var runner = new CheckRunner(new ProcessExecutor(), bundle, CheckedCard.of(card("hello", "")),
                Duration.ofSeconds(10), () -> now[0]);
        now[0] = Duration.ofSeconds(9).toNanos() + 1;
        var outcome = new SmokeTestCheck(validator).check(runner);
        assertThat(outcome.run()).isZero();
        assertThat(outcome.findings()).hasSize(2).allMatch(f -> f.message().contains("budget"));
        assertThat(runner.run("x", false, jakarta.json.JsonValue.EMPTY_JSON_OBJECT, Map.of(), runner.limits())).isEmpty();
    }
}
