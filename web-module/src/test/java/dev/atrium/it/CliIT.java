package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import dev.atrium.cli.AgentCli;
import dev.atrium.cli.Environment;
import picocli.CommandLine.Help.Ansi;

/**
 * The {@code agent} CLI's commands, run in this process against the running server as its users would type them:
 * login and whoami, search, invoke (a success and a failed run), the author's logs and revenue, and one agent
 * answering alike on the server and under {@code agent dev}.
 */
@ExtendWith(AtriumServer.class)
class CliIT {

    private static String agentName;
    private static com.fasterxml.jackson.databind.node.ObjectNode agentCard;
    private static String authorKey;
    private static String callerKey;

    @TempDir
    Path home;

    record Run(int exitCode, String out, String err) {
    }

    @BeforeAll
    static void setUp() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        var card = InvokeFixtures.pythonCard("cli-echo");
        agentCard = card;
        agentName = card.get("name").asText();
        var listed = InvokeFixtures.listed(MarketplaceFixtures.staff(), card, InvokeFixtures.PYTHON_ECHO);
        authorKey = key(listed.author());
        callerKey = key(Accounts.verified("cli-caller"));
    }

    private static String key(Accounts.Account account) {
        var reply = account.api().post("/api-keys");
        assertThat(reply.status()).as(reply.toString()).isIn(200, 201);
        return reply.json().get("api_key").asText();
    }

    private Run agent(String key, String stdin, String... args) {
        var variables = new HashMap<String, String>();
        variables.put("ATRIUM_BASE_URL", AtriumServer.get().baseUrl());
        if (key != null) {
            variables.put("ATRIUM_API_KEY", key);
        }
        var out = new StringWriter();
        var err = new StringWriter();
        int code = AgentCli.run(new Environment(Map.copyOf(variables), home, new PrintWriter(out, true),
                new PrintWriter(err, true), new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                Ansi.OFF), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void whenLoggedInThenWhoamiNamesTheKeysUserAndTheFileIsOwnerOnly() throws Exception {
        var login = agent(null, callerKey + "\n", "login", "--base-url", AtriumServer.get().baseUrl(),
                "--with-key-stdin");
        assertThat(login.exitCode()).as(login.err()).isZero();
        var file = home.resolve(".config/atrium/credentials");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");

        var whoami = agent(null, "", "whoami", "--json");
        assertThat(whoami.exitCode()).as(whoami.err()).isZero();
        assertThat(whoami.out()).contains("cli-caller");

        var refused = agent(null, "sk-not-a-key\n", "login", "--with-key-stdin");
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).contains("401");
    }

    @Test
    void whenSearchedThenTheAgentIsListed() throws Exception {
        Run search = null;
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            search = agent(callerKey, "", "search", "Does", "one", "useful", "thing", "for", "tests", "named",
                    agentName, "--limit", "50");
            if (search.out().contains(agentName)) {
                break;
            }
            Thread.sleep(300);
        }
        assertThat(search.exitCode()).as(search.err()).isZero();
        assertThat(search.out()).startsWith("NAME").contains(agentName);
    }

    @Test
    void whenInvokedThenTheOutputAndTheRunAndAFailedRunExitsThree() throws Exception {
        var ok = agent(callerKey, "", "invoke", agentName, "--input", "{\"text\": \"from the cli\"}");
        assertThat(ok.exitCode()).as(ok.err()).isZero();
        assertThat(Api.JSON.readTree(ok.out()).get("result").asText()).isEqualTo("from the cli");
        assertThat(ok.err()).contains("succeeded", "version 1.0.0", "0.01 USD");

        var failed = agent(callerKey, "{\"text\": \"fail\"}", "invoke", agentName, "-i", "-");
        assertThat(failed.exitCode()).as(failed.err()).isEqualTo(3);
        assertThat(failed.err()).contains("failed");

        var invalid = agent(callerKey, "", "invoke", agentName, "--input", "{\"text\": 1}");
        assertThat(invalid.exitCode()).isEqualTo(1);
        assertThat(invalid.err()).contains("HTTP 422", "40001", "text");
    }

    @Test
    void whenInstalledByNameThenTheServerCountsTheDownloadAndUninstallingTwiceExitsOne() throws Exception {
        String installer = key(Accounts.verified("cli-installer"));
        var installed = agent(installer, "", "--json", "install", agentName);
        assertThat(installed.exitCode()).as(installed.err()).isZero();
        String agentId = Api.JSON.readTree(installed.out()).get("agent_id").asText();
        assertThat(Api.anonymous().get("/v1/agents/" + agentId).json().get("name").asText()).isEqualTo(agentName);
        long downloads = Api.anonymous().get("/v1/agents/" + agentId).json().get("downloads").asLong();
        assertThat(agent(installer, "", "install", agentId).exitCode()).as("again: no change").isZero();
        assertThat(Api.anonymous().get("/v1/agents/" + agentId).json().get("downloads").asLong())
                .isEqualTo(downloads);

        assertThat(agent(installer, "", "uninstall", agentName).exitCode()).isZero();
        var again = agent(installer, "", "uninstall", agentId);
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).contains("HTTP 404");
        assertThat(agent(installer, "", "install", "no-such-agent-here").exitCode()).isEqualTo(1);
    }

    @Test
    void whenTheAuthorReadsLogsAndRevenueThenTheirRunsAndCallsAreThere() throws Exception {
        agent(callerKey, "", "invoke", agentName, "--input", "{\"text\": \"counted\"}");
        agent(callerKey, "", "invoke", agentName, "--input", "{\"text\": \"fail\"}");
        // a caller's log is the caller's (spec 03, Security 5): the author reads the logs of their own calls
        agent(authorKey, "", "invoke", agentName, "--input", "{\"text\": \"fail\"}");

        var logs = agent(authorKey, "", "logs", agentName, "--last", "5");
        assertThat(logs.exitCode()).as(logs.err()).isZero();
        assertThat(logs.out()).startsWith("WHEN").contains("succeeded", "failed", "exited with code 3", "failing");
        var json = agent(authorKey, "", "--json", "logs", agentName, "--last", "1");
        assertThat(Api.JSON.readTree(json.out())).hasSize(1);
        assertThat(agent(callerKey, "", "logs", agentName).exitCode()).as("not the caller's agent").isEqualTo(1);

        String month = YearMonth.now(ZoneOffset.UTC).toString();
        var revenue = agent(authorKey, "", "revenue", "--month", month);
        assertThat(revenue.exitCode()).as(revenue.err()).isZero();
        assertThat(revenue.out()).contains("Revenue for " + month, agentName, "total", "Pending");
        var figures = Api.JSON.readTree(agent(authorKey, "", "revenue", "--month", month, "--json").out());
        assertThat(figures.get("calls").asLong()).isPositive();
    }

    @Test
    void whenAnAuthorInitsPublishesAndIsApprovedThenCallersInvokeAndTheAuthorSeesLogsAndRevenue() throws Exception {
        var author = Accounts.verified("cli-author");
        String key = key(author);
        String name = MarketplaceFixtures.unique("word-count");
        var transcript = new StringBuilder();
        java.util.function.BiFunction<String, String[], Run> typed = (who, args) -> {
            var run = agent(who.equals("author") ? key : callerKey, "", args);
            transcript.append("$ agent ").append(String.join(" ", args)).append("   # ").append(who)
                    .append(", exit ").append(run.exitCode()).append('\n').append(run.out()).append(run.err());
            return run;
        };

        var init = typed.apply("author", new String[] {"init", name, "-C", home.toString()});
        assertThat(init.exitCode()).as(init.err()).isZero();
        var test = typed.apply("author", new String[] {"test", "-C", home.resolve(name).toString()});
        assertThat(test.exitCode()).as(test.out() + test.err()).isZero();
        assertThat(test.out()).contains("3 passed, 0 failed");
        var publish = typed.apply("author", new String[] {"publish", "-C", home.resolve(name).toString()});
        assertThat(publish.exitCode()).as(publish.err()).isZero();
        assertThat(publish.out()).contains("Submitted " + name + " 0.1.0", "pending review");
        String agentId = publish.out().replaceAll("(?s).*agent ([0-9a-f-]{36}).*", "$1");
        MarketplaceFixtures.approve(MarketplaceFixtures.staff(), agentId);
        transcript.append("(approved by staff: POST /v1/admin/agents/").append(agentId).append("/approve)\n");

        var invoke = typed.apply("caller",
                new String[] {"invoke", name, "--input", "{\"text\": \"three little words\"}"});
        assertThat(invoke.exitCode()).as(invoke.err()).isZero();
        assertThat(Api.JSON.readTree(invoke.out()).get("words").asInt()).isEqualTo(3);
        String month = YearMonth.now(ZoneOffset.UTC).toString();
        var revenue = typed.apply("author", new String[] {"revenue", "--month", month});
        assertThat(revenue.exitCode()).as(revenue.err()).isZero();
        assertThat(revenue.out()).contains(name, "0.001", "0.0007").doesNotContain("E-");
        // a caller's log is the caller's (spec 03, Security 5): the author reads the logs of their own calls
        var own = typed.apply("author", new String[] {"invoke", name, "--input", "{\"text\": \"my own try\"}"});
        assertThat(own.exitCode()).as(own.err()).isZero();
        var logs = typed.apply("author", new String[] {"logs", name, "--last", "3"});
        assertThat(logs.exitCode()).as(logs.err()).isZero();
        assertThat(logs.out()).contains("succeeded", "counted 3 words");
        System.out.println("agent CLI transcript:\n" + transcript);
    }

    @Test
    void whenAPublishedCardBreaksTheServedSchemaThenNothingIsUploaded() throws Exception {
        var author = Accounts.verified("cli-bad-card");
        String key = key(author);
        assertThat(agent(key, "", "init", "bad-card-agent", "-C", home.toString()).exitCode()).isZero();
        Path card = home.resolve("bad-card-agent/agent.json");
        Files.writeString(card, Files.readString(card).replace("\"version\" : \"0.1.0\"",
                "\"version\" : \"one\""));

        var publish = agent(key, "", "publish", "-C", home.resolve("bad-card-agent").toString());

        assertThat(publish.exitCode()).isEqualTo(1);
        assertThat(publish.err()).contains("card /version:");
        var mine = author.api().get("/v1/me/agents");
        assertThat(mine.json().get("items")).isEmpty();
    }

    @Test
    void whenTheSameAgentRunsUnderAgentDevThenItAnswersAsTheServer() throws Exception {
        Path dir = home.resolve("dev-" + agentName);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("agent.json"), Api.JSON.writeValueAsString(agentCard));
        try (var tar = new org.apache.commons.compress.archivers.tar.TarArchiveInputStream(
                new java.util.zip.GZIPInputStream(new ByteArrayInputStream(InvokeFixtures.PYTHON_ECHO)))) {
            for (var entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                Files.write(dir.resolve(entry.getName()), tar.readAllBytes());
            }
        }
        var out = new StringWriter();
        var err = new StringWriter();
        var env = new Environment(Map.of(), home, new PrintWriter(out, true), new PrintWriter(err, true),
                new ByteArrayInputStream(new byte[0]), Ansi.OFF);
        var dev = new Thread(() -> AgentCli.run(env, "--json", "dev", "-C", dir.toString(), "--port", "0"));
        dev.start();
        try {
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
            while (!out.toString().contains("\"port\"") && dev.isAlive() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(out.toString()).as(err.toString()).contains("\"port\"");
            String local = "http://127.0.0.1:" + Api.JSON.readTree(out.toString()).get("port").asInt();
            var http = java.net.http.HttpClient.newHttpClient();
            for (String input : new String[] {"{\"text\": \"parity\", \"count\": 2}", "{\"text\": \"fail\"}",
                    "{\"text\": 1, \"count\": \"two\"}", "{}", "[1, 2]"}) {
                var server = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                                AtriumServer.get().baseUrl() + "/v1/agents/" + agentName + "/invoke"))
                        .header("Authorization", "Bearer " + callerKey).header("Content-Type", "application/json")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(input)).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                var here = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                                local + "/v1/agents/" + agentName + "/invoke"))
                        .header("Content-Type", "application/json")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(input)).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());

                assertThat(here.statusCode()).as(input).isEqualTo(server.statusCode());
                for (String header : new String[] {"Atrium-Run-Status", "Atrium-Agent-Version", "Atrium-Tokens-Input",
                        "Atrium-Tokens-Output"}) {
                    assertThat(here.headers().firstValue(header)).as(input + " " + header)
                            .isEqualTo(server.headers().firstValue(header));
                }
                var expected = Api.JSON.readTree(server.body());
                var actual = Api.JSON.readTree(here.body());
                if (server.statusCode() == 200) {
                    assertThat(actual).as(input).isEqualTo(expected);
                } else {
                    assertThat(actual.get("valid")).as(input).isEqualTo(expected.get("valid"));
                    assertThat(actual.get("error").get("code")).as(input).isEqualTo(expected.get("error").get("code"));
                    assertThat(actual.get("error").get("details")).as(input)
                            .isEqualTo(expected.get("error").get("details"));
                }
            }
        } finally {
            dev.interrupt();
            dev.join(10_000);
        }
    }
}
