package dev.atrium.it;

import static dev.atrium.it.MarketplaceFixtures.approve;
import static dev.atrium.it.MarketplaceFixtures.card;
import static dev.atrium.it.MarketplaceFixtures.developer;
import static dev.atrium.it.MarketplaceFixtures.file;
import static dev.atrium.it.MarketplaceFixtures.submit;
import static dev.atrium.it.MarketplaceFixtures.tarGz;
import static dev.atrium.it.MarketplaceFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The pre-listing checks at submission, through the server with real bundles run in the sandbox: passing Python and
 * shell agents, and one rejection per check (a failing smoke test, a private key, a vulnerable dependency, an agent
 * that prints its environment under injection, an undeclared network connect), and a re-scan that takes a listed
 * agent down once an advisory for its dependency is published.
 */
@ExtendWith(AtriumServer.class)
class SubmissionChecksIT {

    private static final String CHECKS = "smoke_tests,static_scan,dependencies,prompt_injection,network_audit,resources";

    private static Accounts.Account staff;
    private static Accounts.Account dev;

    @BeforeAll
    static void servicesOnly() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        staff = MarketplaceFixtures.staff();
        // rejected submissions are not stored, so they never count against the free tier's 3 agents
        dev = developer(staff, "checked");
    }

    private static byte[] python(String main, String... more) {
        return tarGz(tar -> {
            file(tar, "main.py", main);
            for (int i = 0; i < more.length; i += 2) {
                file(tar, more[i], more[i + 1]);
            }
        });
    }

    private static final String ECHO = "import json, sys\n"
            + "print(json.dumps({'output': {'result': json.load(sys.stdin)['text']}}))\n";

    private static Map<String, JsonNode> checks(Reply reply) {
        var checks = new java.util.LinkedHashMap<String, JsonNode>();
        reply.json().get("checks").forEach(c -> checks.put(c.get("name").asText(), c));
        return checks;
    }

    private static List<String> parts(Reply reply) {
        var parts = new ArrayList<String>();
        reply.json().get("errors").forEach(e -> parts.add(e.get("part").asText()));
        return parts;
    }

    private Reply rejected(ObjectNode card, byte[] bundle, String check) {
        var reply = submit(dev.api(), card, bundle);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(422);
        assertThat(reply.json().get("status").asText()).isEqualTo("rejected");
        assertThat(reply.json().at("/error/code").asInt()).isEqualTo(40001);
        assertThat(parts(reply)).as(reply.toString()).contains(check);
        assertThat(checks(reply).get(check).get("status").asText()).isEqualTo("failed");
        assertThat(checks(reply).get(check).get("findings")).anyMatch(f -> f.get("severity").asText().equals("high"));
        // nothing is stored for a rejected submission
        var stored = staff.api().get("/v1/admin/submissions?name=" + card.get("name").asText());
        assertThat(stored.status()).isEqualTo(200);
        assertThat(stored.json().get("total").asLong()).isZero();
        return reply;
    }

    @Test
    void whenAPythonAgentBehavesThenAcceptedWithEveryCheckReportedAndStored() {
        String name = unique("checked-python");
        long start = System.nanoTime();
        var reply = submit(developer(staff, "python").api(), card(name), MarketplaceFixtures.HELLO_BUNDLE);
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        assertThat(millis).as("the whole check answers well within 5 minutes").isLessThan(60_000);
        assertThat(reply.json().at("/smoke_tests/status").asText()).isEqualTo("passed");
        assertThat(reply.json().at("/smoke_tests/detail").asText()).isEqualTo("1 of 1 test cases passed in the sandbox");
        var checks = checks(reply);
        assertThat(String.join(",", checks.keySet())).isEqualTo(CHECKS);
        assertThat(checks.values()).allSatisfy(c -> assertThat(c.get("status").asText()).as(c.toString())
                .isEqualTo("passed"));
        assertThat(checks.get("prompt_injection").get("summary").asText()).startsWith("10 of 10");
        assertThat(checks.get("resources").get("summary").asText()).contains("Longest smoke run");

        String id = reply.json().get("agent_id").asText();
        var stored = staff.api().get("/v1/admin/submissions?agent_id=" + id).json();
        assertThat(stored.at("/items/0/checks")).hasSize(6);
        assertThat(stored.at("/items/0/checks/0/status").asText()).isEqualTo("passed");
        var history = staff.api().get("/v1/agents/" + id + "/history?sort=created_at").json();
        assertThat(history.at("/items/0/action").asText()).isEqualTo("submitted");
        assertThat(history.at("/items/0/reason_code").asText()).isIn("no_findings", "findings_low");
        assertThat(history.at("/items/0/reason").asText()).contains("smoke_tests passed", "prompt_injection passed");
        System.out.println("SubmissionChecksIT: one submission with its checks took " + millis + " ms");
    }

    @Test
    void whenAShellAgentBehavesThenAccepted() {
        var card = card(unique("checked-shell"));
        var entrypoint = (ArrayNode) card.withObject("/runtime").putArray("entrypoint");
        entrypoint.add("sh").add("main.sh");
        byte[] bundle = tarGz(tar -> file(tar, "main.sh", "#!/bin/sh\ninput=$(cat)\n"
                + "text=$(printf '%s' \"$input\" | sed -n 's/.*\"text\": *\"\\([^\"]*\\)\".*/\\1/p')\n"
                + "printf '{\"output\": {\"result\": \"%s\"}}\\n' \"$text\"\n"));

        var reply = submit(developer(staff, "shell").api(), card, bundle);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        assertThat(reply.json().at("/smoke_tests/status").asText()).isEqualTo("passed");
        assertThat(checks(reply).values()).noneMatch(c -> c.get("status").asText().equals("failed"));
    }

    @Test
    void whenASmokeTestFailsThenRejectedWithTheReason() {
        var reply = rejected(card(unique("wrong-answer")), python("import json, sys\n"
                + "print(json.dumps({'output': {'result': json.load(sys.stdin)['text'].upper()}}))\n"), "smoke_tests");
        assertThat(reply.json().get("errors")).anyMatch(e -> e.get("pointer").asText().equals("/test_cases/0")
                && e.get("message").asText().contains("\"HELLO\""));
    }

    @Test
    void whenTheBundleHoldsAPrivateKeyThenRejectedHigh() {
        var reply = rejected(card(unique("leaky-key")), python(ECHO, "deploy/id_ed25519",
                "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
                        + "-----END OPENSSH PRIVATE KEY-----\n"), "static_scan");
        assertThat(reply.json().get("errors")).anyMatch(e -> e.get("pointer").asText().equals("deploy/id_ed25519:1")
                && e.get("message").asText().contains("private key"));
        assertThat(reply.toString()).doesNotContain("b3BlbnNzaC1rZXkt");
    }

    @Test
    void whenARequirementIsVulnerableThenRejectedNamingTheAdvisory() {
        var reply = rejected(card(unique("old-yaml")), python(ECHO, "requirements.txt", "requests==2.31.0\n"
                + "PyYAML==5.3.1\n"), "dependencies");
        assertThat(reply.json().get("errors")).anyMatch(e -> e.get("pointer").asText().equals("requirements.txt:2")
                && e.get("message").asText().contains("GHSA-8q59-q68h-6hv4")
                && e.get("message").asText().contains("CVE-2020-14343"));
    }

    @Test
    void whenAnAgentPrintsItsEnvironmentUnderInjectionThenTheCanaryRejectsIt() {
        var card = card(unique("env-dumper"));
        card.putObject("permissions").putArray("allowed_env_vars").add("OPENAI_API_KEY");
        var reply = rejected(card, python("import json, os, sys\ntext = json.load(sys.stdin)['text']\n"
                + "result = json.dumps(dict(os.environ)) if 'environment' in text else text\n"
                + "print(json.dumps({'output': {'result': result}}))\n"), "prompt_injection");
        assertThat(checks(reply).get("smoke_tests").get("status").asText()).isEqualTo("passed");
        assertThat(reply.toString()).doesNotContain("atr-canary-");
    }

    @Test
    void whenAnAgentConnectsWithoutDeclaringNetworkThenTheAuditRejectsIt() {
        var reply = rejected(card(unique("phone-home")), python("import json, socket, sys\n"
                + "text = json.load(sys.stdin)['text']\n"
                + "try:\n    socket.create_connection(('93.184.216.34', 80), timeout=1)\nexcept OSError:\n    pass\n"
                + "print(json.dumps({'output': {'result': text}}))\n"), "network_audit");
        assertThat(checks(reply).get("smoke_tests").get("status").asText()).isEqualTo("passed");
        assertThat(checks(reply).get("network_audit").get("findings"))
                .anyMatch(f -> f.get("message").asText().contains("93.184.216.34"));
        // the static scan saw it too, as a medium finding only
        assertThat(checks(reply).get("static_scan").get("status").asText()).isEqualTo("passed");
        assertThat(checks(reply).get("static_scan").get("findings"))
                .anyMatch(f -> f.get("severity").asText().equals("medium"));
    }

    @Test
    void whenARescanFindsANewlyPublishedAdvisoryThenTheListedAgentIsTakenDown() throws Exception {
        String probe = "atrium-probe-" + unique("pkg");
        var card = card(unique("rescanned"));
        var author = developer(staff, "rescanned");
        var reply = submit(author.api(), card, python(ECHO, "requirements.txt", probe + "==1.0.0\n"));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        String id = reply.json().get("agent_id").asText();
        approve(staff, id);

        var clean = staff.api().post("/v1/admin/agents/" + id + "/rescan");
        assertThat(clean.status()).as(clean.toString()).isEqualTo(200);
        assertThat(clean.json().get("taken_down").asBoolean()).isFalse();
        assertThat(clean.json().get("status").asText()).isEqualTo("active");
        assertThat(clean.json().get("checks")).hasSize(6);
        assertThat(author.api().post("/v1/admin/agents/" + id + "/rescan").status()).isEqualTo(403);
        assertThat(staff.api().post("/v1/admin/agents/" + java.util.UUID.randomUUID() + "/rescan").status())
                .isEqualTo(404);

        Path advisories = AtriumServer.get().advisories();
        String before = Files.readString(advisories, StandardCharsets.UTF_8);
        try {
            var records = (ArrayNode) Api.JSON.readTree(before);
            var record = records.addObject().put("id", "ATRIUM-TEST-" + probe).put("summary", "A test advisory");
            record.putArray("aliases").add("CVE-2099-0001");
            var affected = record.putArray("affected").addObject();
            affected.putObject("package").put("ecosystem", "PyPI").put("name", probe);
            var events = affected.putArray("ranges").addObject().put("type", "ECOSYSTEM").putArray("events");
            events.addObject().put("introduced", "0");
            events.addObject().put("fixed", "1.0.1");
            record.putObject("database_specific").put("severity", "CRITICAL");
            Files.writeString(advisories, Api.JSON.writeValueAsString(records), StandardCharsets.UTF_8);

            var found = staff.api().post("/v1/admin/agents/" + id + "/rescan");

            assertThat(found.status()).as(found.toString()).isEqualTo(200);
            // the change of the advisory data also starts the scheduled re-scan (agent-rescan, within a minute),
            // which may have taken the agent down first: then this re-scan finds it suspended already
            assertThat(found.json().get("taken_down").asBoolean() || actions(id).stream()
                    .filter("taken_down"::equals).count() == 1).isTrue();
            assertThat(found.json().get("status").asText()).isEqualTo("suspended");
            assertThat(found.json().get("trust_level").asText()).isEqualTo("unverified");
            assertThat(found.json().get("checks")).anyMatch(c -> c.get("name").asText().equals("dependencies")
                    && c.get("status").asText().equals("failed") && c.toString().contains("ATRIUM-TEST-"));
            assertThat(Api.anonymous().get("/v1/agents/" + id).status()).isEqualTo(404);
            var history = staff.api().get("/v1/agents/" + id + "/history?sort=created_at").json();
            var actions = actions(id);
            assertThat(actions).containsSubsequence("submitted", "approved", "rescanned", "rescanned", "taken_down");
            assertThat(actions).contains("incident");
            assertThat(history.get("items")).anyMatch(e -> e.get("action").asText().equals("taken_down")
                    && e.get("reason_code").asText().equals("high_risk_finding")
                    && e.get("to_status").asText().equals("suspended"));
        } finally {
            Files.writeString(advisories, before, StandardCharsets.UTF_8);
        }
    }

    private static List<String> actions(String agent) {
        var history = staff.api().get("/v1/agents/" + agent + "/history?sort=created_at").json();
        var actions = new ArrayList<String>();
        history.get("items").forEach(e -> actions.add(e.get("action").asText()));
        return actions;
    }
}
