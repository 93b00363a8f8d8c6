package dev.atrium.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.atrium.sdk.StubServer;
import dev.atrium.sdk.StubServer.Answer;

class AgentCliTest {

    private static final String ME = "{\"user\":{\"id\":7,\"username\":\"ada\"},\"roles\":[\"user\"],"
            + "\"permissions\":[]}";

    @TempDir
    Path home;

    /** A marketplace stand-in: who the key is, a search, the stub's agents, revenue, an author's agents and runs. */
    private StubServer server() throws Exception {
        return new StubServer((request, n) -> {
            if (!"Bearer sk-good".equals(request.header("Authorization")) && !request.path().endsWith("/search")) {
                return Answer.json(401, "{\"error\":{\"code\":40100,\"message\":\"Authentication required\"}}");
            }
            return switch (request.path()) {
                case "/me/permissions" -> Answer.json(200, ME);
                case "/v1/agents/search" -> Answer.json(200, "{\"agents\":[{\"id\":\"a1\",\"name\":\"pdf-sum\","
                        + "\"description\":\"Sums up \\u001b[31mred\\u001b[0m @|bold x|@ PDFs\",\"quality_score\":"
                        + "80,\"downloads\":3,\"distance\":0.25}],\"total\":1}");
                case "/v1/me/revenue" -> Answer.json(200, "{\"month\":\"2026-10\",\"calls\":3,\"gross\":0.003,"
                        + "\"developer_share\":0.0021,\"agents\":[{\"agent_id\":\"a1\",\"name\":\"pdf-sum\","
                        + "\"calls\":3,\"gross\":0.003,\"developer_share\":0.0021}],\"pending\":0.0007,"
                        + "\"paid_out\":0.0,\"currency\":\"USD\"}");
                case "/v1/me/agents" -> Answer.json(200, "{\"items\":[{\"id\":\"a1\",\"name\":\"pdf-sum\"}]}");
                case "/v1/agents/a1/runs" -> Answer.json(200, "{\"items\":[{\"id\":\"r1\",\"agent_version\":"
                        + "\"1.0.0\",\"status\":\"failed\",\"duration_ms\":12,\"exit_reason\":\"exited with code 3\","
                        + "\"log\":\"Traceback\\nValueError\",\"created_at\":\"2026-11-25T10:00:00Z\"}]}");
                case "/v1/me/boom" -> Answer.json(500, "{\"error\":{\"code\":50000,\"message\":\"Internal\"}}");
                case "/v1/agents" -> Answer.json(200, "name=pdf-sum".equals(nameFilter(request.query()))
                        ? "{\"items\":[{\"id\":\"" + AGENT_ID + "\",\"name\":\"pdf-sum\"}],\"total\":1}"
                        : "{\"items\":[],\"total\":0}");
                case "/v1/agents/" + AGENT_ID + "/installations" -> installations(request, n);
                default -> StubServer.agents(request);
            };
        });
    }

    private static final String AGENT_ID = "6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b";

    private static String nameFilter(String query) {
        return query == null ? null : java.util.Arrays.stream(query.split("&")).filter(p -> p.startsWith("name="))
                .findFirst().orElse(null);
    }

    /** The agent's installations: installed on the first POST, 200 on the next; DELETE 204 once, then 404. */
    private final java.util.concurrent.atomic.AtomicBoolean installed = new java.util.concurrent.atomic.AtomicBoolean();

    private Answer installations(StubServer.Request request, int n) {
        String installation = "{\"id\":\"i1\",\"agent_id\":\"" + AGENT_ID + "\",\"installed_at\":"
                + "\"2026-11-29T02:00:00Z\\u001b[31m\"}";
        if ("POST".equals(request.method())) {
            return Answer.json(installed.getAndSet(true) ? 200 : 201, installation);
        }
        return installed.getAndSet(false) ? new Answer(204, "", java.util.Map.of(), 0)
                : Answer.json(404, "{\"error\":{\"code\":40400,\"message\":\"Installation not found\"}}");
    }

    private CliRun cli(StubServer server) {
        return new CliRun(home).with("ATRIUM_BASE_URL", server.url()).with("ATRIUM_API_KEY", "sk-good");
    }

    @Test
    void whenTheHelpIsAskedThenItMatchesTheSnapshot() throws Exception {
        var result = new CliRun(home).run("--help");

        assertThat(result.exitCode()).isZero();
        String snapshot = new String(getClass().getResourceAsStream("/agent-help.txt").readAllBytes(),
                java.nio.charset.StandardCharsets.UTF_8);
        assertThat(result.out()).isEqualTo(snapshot);
    }

    @Test
    void whenEveryCommandIsAskedForHelpThenItAnswers() {
        for (String command : new String[] {"login", "whoami", "init", "test", "dev", "publish", "search", "invoke",
                "install", "uninstall", "logs", "revenue", "generate-completion"}) {
            var result = new CliRun(home).run(command, "--help");
            assertThat(result.exitCode()).as(command).isZero();
            assertThat(result.out()).as(command).startsWith("Usage: agent " + command);
        }
    }

    @Test
    void whenLoggingInThenTheKeyIsCheckedAndStoredOwnerOnly() throws Exception {
        try (var server = server()) {
            var login = new CliRun(home).stdin("sk-good\n").run("login", "--base-url", server.url(),
                    "--with-key-stdin");

            assertThat(login.exitCode()).as(login.err()).isZero();
            assertThat(login.out()).contains("Logged in to " + server.url() + " as ada");
            Path file = home.resolve(".config/atrium/credentials");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
                    .isEqualTo("rwx------");
            assertThat(Files.readString(file)).contains("api_key=sk-good");

            var whoami = new CliRun(home).run("whoami");
            assertThat(whoami.exitCode()).as(whoami.err()).isZero();
            assertThat(whoami.out()).contains("ada (user 7)");
            assertThat(whoami.out() + whoami.err()).doesNotContain("sk-good");
        }
    }

    @Test
    void whenTheKeyIsWrongThenNothingIsStoredAndExitOne() throws Exception {
        try (var server = server()) {
            var login = new CliRun(home).stdin("sk-bad\n").run("login", "--base-url", server.url(),
                    "--with-key-stdin");

            assertThat(login.exitCode()).isEqualTo(1);
            assertThat(login.err()).contains("Authentication required", "HTTP 401", "agent login");
            assertThat(home.resolve(".config/atrium/credentials")).doesNotExist();
        }
    }

    @Test
    void whenTheEnvironmentNamesAKeyThenItWinsOverTheFile() throws Exception {
        try (var server = server()) {
            new CliRun(home).stdin("sk-good\n").run("login", "--base-url", server.url(), "--with-key-stdin");

            var overridden = new CliRun(home).with("ATRIUM_API_KEY", "sk-bad").run("whoami");

            assertThat(overridden.exitCode()).isEqualTo(1);
            assertThat(server.requests.get(server.requests.size() - 1).header("Authorization"))
                    .isEqualTo("Bearer sk-bad");
        }
    }

    @Test
    void whenNotLoggedInThenExitOneWithAHint() {
        var result = new CliRun(home).run("whoami");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).contains("Not logged in", "agent login");
    }

    @Test
    void whenSearchedThenATableWithoutTheServersControlCharacters() throws Exception {
        try (var server = server()) {
            var result = cli(server).run("search", "summarize", "pdf", "--limit", "5");

            assertThat(result.exitCode()).as(result.err()).isZero();
            assertThat(result.out()).startsWith("NAME").contains("pdf-sum", "0.250", "80.0");
            assertThat(result.out()).doesNotContain("\u001b").contains("?[31mred");
            assertThat(server.requests.get(0).query()).isEqualTo("q=summarize%20pdf&limit=5");
        }
    }

    @Test
    void whenSearchedForJsonThenOneDocument() throws Exception {
        try (var server = server()) {
            var result = cli(server).run("search", "pdf", "--json");

            assertThat(Output.JSON.readTree(result.out()).get("agents").get(0).get("name").asText())
                    .isEqualTo("pdf-sum");
        }
    }

    @Test
    void whenInvokedThenTheOutputOnStdoutAndTheRunOnStderr() throws Exception {
        try (var server = server()) {
            var result = cli(server).run("invoke", "upper", "--input", "{\"text\":\"hi\"}");

            assertThat(result.exitCode()).as(result.err()).isZero();
            assertThat(Output.JSON.readTree(result.out()).get("text").asText()).isEqualTo("HI");
            assertThat(result.err()).contains("succeeded", "version 1.0.0", "12 ms", "tokens 3/4", "0.01 USD");
        }
    }

    @Test
    void whenTheInputComesFromAFileOrStdinThenItIsRead() throws Exception {
        try (var server = server()) {
            Path input = Files.writeString(home.resolve("input.json"), "{\"n\": 41}");

            var fromFile = cli(server).run("invoke", "increment", "--input", "@" + input);
            assertThat(fromFile.out()).as(fromFile.err()).contains("42");
            assertThat(cli(server).stdin("{\"n\": 1}").run("invoke", "increment", "-i", "-").out()).contains("2");
        }
    }

    @Test
    void whenTheRunDoesNotSucceedThenExitThree() throws Exception {
        try (var server = server()) {
            var result = cli(server).run("invoke", "broken", "--input", "{}");

            assertThat(result.exitCode()).isEqualTo(3);
            assertThat(result.err()).contains("failed");
            assertThat(result.out()).contains("exited with 1");
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "'not json'|is not JSON", "'[1,2]'|must be a JSON object", "'\"text\"'|must be a JSON object",
            "'{\"a\":'|is not JSON", "@/no/such/file.json|No such file", "''|is empty", "'null'|must be a JSON object"})
    void whenTheInputIsHostileThenExitOneAndNothingIsSent(String input, String message) throws Exception {
        try (var server = server()) {
            var result = cli(server).run("invoke", "echo", "--input", input);

            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(result.err()).contains(message);
            assertThat(server.requests).isEmpty();
        }
    }

    @Test
    void whenTheInputIsOverOneMebibyteThenRefusedBeforeSending() throws Exception {
        try (var server = server()) {
            var result = cli(server).stdin("{\"t\":\"" + "x".repeat(1024 * 1024) + "\"}")
                    .run("invoke", "echo", "-i", "-");

            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(result.err()).contains("larger than 1 MiB");
            assertThat(server.requests).isEmpty();
        }
    }

    @Test
    void whenRandomArgumentsAreGivenThenTheCliNeverCrashes() {
        var random = new Random(20261125);
        String[] words = {"invoke", "search", "logs", "revenue", "--json", "--input", "-i", "--limit", "--last",
                "--month", "2026-13", "-1", "{}", "@", "--", "\u0000", "--help", "x", "login", "--base-url",
                "ftp://x", "whoami", "%s", "@|red x|@", "test", "publish", "--wait"};
        var cli = new CliRun(home).with("ATRIUM_BASE_URL", "http://127.0.0.1:9").with("ATRIUM_API_KEY", "sk-x");
        for (int i = 0; i < 300; i++) {
            var args = new String[random.nextInt(5)];
            for (int a = 0; a < args.length; a++) {
                args[a] = words[random.nextInt(words.length)];
            }
            var result = cli.run(args);
            assertThat(result.exitCode()).as(String.join(" ", args) + "\n" + result.err()).isBetween(0, 3);
            assertThat(result.err()).as(String.join(" ", args)).doesNotContain("Exception in", "\tat ");
        }
    }

    @Test
    void whenAnOptionIsUnknownThenExitOneWithASuggestion() {
        var result = new CliRun(home).run("serch", "x");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).contains("search", "--help");
    }

    @Test
    void whenTheServerFailsOrIsAwayThenExitTwo() throws Exception {
        try (var server = server()) {
            assertThat(cli(server).run("invoke", "busy", "--input", "{}").exitCode()).isEqualTo(2);
        }
        var away = new CliRun(home).with("ATRIUM_BASE_URL", "http://127.0.0.1:9").with("ATRIUM_API_KEY", "sk-x")
                .run("whoami");
        assertThat(away.exitCode()).isEqualTo(2);
        assertThat(away.err()).contains("could not be reached");
    }

    @Test
    void whenRevenueIsAskedThenATableWithTotalsAndTheMonthIsChecked() throws Exception {
        try (var server = server()) {
            var result = cli(server).run("revenue", "--month", "2026-10");

            assertThat(result.exitCode()).as(result.err()).isZero();
            assertThat(result.out()).contains("Revenue for 2026-10", "pdf-sum", "total", "0.0021",
                    "Pending 0.0007 USD, paid out 0.00 USD").doesNotContain("E-");
            assertThat(server.requests.get(0).query()).isEqualTo("month=2026-10");

            var bad = cli(server).run("revenue", "--month", "2026-13");
            assertThat(bad.exitCode()).isEqualTo(1);
            assertThat(server.requests).hasSize(1);
        }
    }

    @Test
    void whenLogsAreAskedThenTheRunsAndTheirLogs() throws Exception {
        try (var server = server()) {
            var result = cli(server).run("logs", "pdf-sum", "--last", "5");

            assertThat(result.exitCode()).as(result.err()).isZero();
            assertThat(result.out()).contains("failed", "exited with code 3", "  Traceback", "  ValueError");
            assertThat(server.requests.get(1).query()).isEqualTo("sort=-created_at&page_size=5");

            var missing = cli(server).run("logs", "not-mine");
            assertThat(missing.exitCode()).isEqualTo(1);
            assertThat(missing.err()).contains("no agent named not-mine");
        }
    }

    @Test
    void whenCompletionIsGeneratedThenItIsABashScriptForAgent() {
        var result = new CliRun(home).run("generate-completion");

        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("complete -F", "agent");
    }

    @Test
    void whenInstallingByIdOrNameThenTheInstallationAndUninstallingTwiceExitsOne() throws Exception {
        try (var server = server()) {
            var byId = cli(server).run("install", AGENT_ID);
            assertThat(byId.exitCode()).as(byId.err()).isZero();
            assertThat(byId.out()).contains("Installed " + AGENT_ID, "2026-11-29T02:00:00Z")
                    .doesNotContain("\u001b");
            assertThat(server.requests.get(0).method()).isEqualTo("POST");
            assertThat(server.requests.get(0).path()).isEqualTo("/v1/agents/" + AGENT_ID + "/installations");

            var byName = cli(server).run("--json", "install", "pdf-sum");
            assertThat(byName.exitCode()).as(byName.err()).isZero();
            assertThat(StubServer.JSON.readTree(byName.out()).get("agent_id").asText()).isEqualTo(AGENT_ID);
            assertThat(server.requests.get(1).query()).isEqualTo("page_size=1&name=pdf-sum");

            var removed = cli(server).run("uninstall", "pdf-sum");
            assertThat(removed.exitCode()).as(removed.err()).isZero();
            assertThat(removed.out()).contains("Uninstalled pdf-sum");
            var again = cli(server).run("uninstall", AGENT_ID);
            assertThat(again.exitCode()).isEqualTo(1);
            assertThat(again.err()).contains("Installation not found", "404");

            var unknown = cli(server).run("install", "no-such-agent");
            assertThat(unknown.exitCode()).isEqualTo(1);
            assertThat(unknown.err()).contains("No listed agent is named no-such-agent");
        }
    }

    @Test
    void whenTheAgentArgumentIsHostileThenExitOneAndNothingIsSent() throws Exception {
        try (var server = server()) {
            for (String hostile : new String[] {"../../admin", "a/b", "Agent", "-x", "pdf sum", "x".repeat(65),
                    "\u001b[31mred", "%2e%2e", "pdf-sum?name=other", "", " "}) {
                var result = cli(server).run("install", hostile);
                assertThat(result.exitCode()).as(hostile).isEqualTo(1);
                assertThat(result.err()).as(hostile).doesNotContain("\u001b[31m");
            }
            assertThat(server.requests).isEmpty();
            assertThat(new CliRun(home).run("install").exitCode()).as("no argument").isEqualTo(1);
            assertThat(cli(server).run("install", "--json").exitCode()).isEqualTo(1);
        }
    }
}
