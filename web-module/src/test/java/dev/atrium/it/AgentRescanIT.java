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
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;

/**
 * The scheduled re-scan (job {@code agent-rescan}): a listed agent whose dependency gains an advisory is suspended
 * ({@code high_risk_finding}) with one incident by the execution the change of the advisory file starts, a clean agent
 * stays listed, and a second execution opens no second incident.
 */
@ExtendWith(AtriumServer.class)
class AgentRescanIT {

    private static final String JOB = "/admin/batch-jobs/agent-rescan/executions";
    private static final String ECHO = "import json, sys\n"
            + "print(json.dumps({'output': {'result': json.load(sys.stdin)['text']}}))\n";

    private static Accounts.Account staff;

    @BeforeAll
    static void servicesOnly() {
        assumeFalse(AtriumServer.get().embedded(), "writes the services server's advisory file");
        staff = MarketplaceFixtures.staff();
    }

    /** A listed agent whose bundle pins {@code pkg==1.0.0} in its requirements. */
    private static String listedWith(Accounts.Account author, String pkg) {
        byte[] bundle = tarGz(tar -> {
            file(tar, "main.py", ECHO);
            file(tar, "requirements.txt", pkg + "==1.0.0\n");
        });
        var reply = submit(author.api(), card(unique("rescan")), bundle);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        String id = reply.json().get("agent_id").asText();
        approve(staff, id);
        assertThat(status(id)).isEqualTo("active");
        return id;
    }

    private static String status(String agent) {
        try {
            return InvokeFixtures.rows("SELECT status FROM agents WHERE id = ?", UUID.fromString(agent))
                    .get(0).get("status").toString().toLowerCase(java.util.Locale.ROOT);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static long incidents(String agent) throws Exception {
        return ((Number) InvokeFixtures.rows("SELECT COUNT(*) AS n FROM agent_incidents WHERE agent_id = ?",
                UUID.fromString(agent)).get(0).get("n")).longValue();
    }

    private static List<JsonNode> executions() {
        var reply = staff.api().get(JOB + "?instances=100");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        var all = new ArrayList<JsonNode>();
        reply.json().get("data").forEach(all::add);
        return all;
    }

    private static boolean running(JsonNode execution) {
        return List.of("STARTING", "STARTED", "STOPPING").contains(execution.get("status").asText());
    }

    /** The advisory file with a CRITICAL record for every version of {@code pkg} below 1.0.1 added. */
    private static String withAdvisory(String before, String pkg) throws Exception {
        var records = (ArrayNode) Api.JSON.readTree(before);
        var record = records.addObject().put("id", "ATRIUM-RESCAN-" + pkg).put("summary", "A test advisory");
        record.putArray("aliases").add("CVE-2099-0002");
        var affected = record.putArray("affected").addObject();
        affected.putObject("package").put("ecosystem", "PyPI").put("name", pkg);
        var events = affected.putArray("ranges").addObject().put("type", "ECOSYSTEM").putArray("events");
        events.addObject().put("introduced", "0");
        events.addObject().put("fixed", "1.0.1");
        record.putObject("database_specific").put("severity", "CRITICAL");
        return Api.JSON.writeValueAsString(records);
    }

    @Test
    void whenTheAdvisoryDataGainsAnEntryForADependencyThenTheRescanJobSuspendsTheAgentOnce() throws Exception {
        var author = developer(staff, "rescanned");
        String pkg = "atrium-probe-" + unique("vuln");
        String vulnerable = listedWith(author, pkg);
        String clean = listedWith(author, "atrium-probe-" + unique("clean"));
        Set<Long> earlier = new HashSet<>();
        executions().forEach(e -> earlier.add(e.get("id").asLong()));

        Path advisories = AtriumServer.get().advisories();
        String before = Files.readString(advisories, StandardCharsets.UTF_8);
        try {
            Files.writeString(advisories, withAdvisory(before, pkg), StandardCharsets.UTF_8);

            // the schedule looks at the advisory data every minute and starts an execution when it changed
            JsonNode started = awaitStartedAndEnded(earlier, vulnerable);

            assertThat(started.get("status").asText()).as(started.toString()).isEqualTo("COMPLETED");
            assertThat(status(vulnerable)).isEqualTo("suspended");
            assertThat(incidents(vulnerable)).isEqualTo(1);
            var history = staff.api().get("/v1/agents/" + vulnerable + "/history?sort=created_at").json();
            assertThat(history.get("items")).anyMatch(e -> e.get("action").asText().equals("taken_down")
                    && e.get("reason_code").asText().equals("high_risk_finding")
                    && e.get("to_status").asText().equals("suspended")
                    && e.toString().contains("ATRIUM-RESCAN-"));
            assertThat(Api.anonymous().get("/v1/agents/" + vulnerable).status()).isEqualTo(404);
            assertThat(status(clean)).isEqualTo("active");
            assertThat(incidents(clean)).isZero();

            var again = staff.api().post(JOB);
            assertThat(again.status()).as(again.toString()).isEqualTo(202);
            var end = awaitEnd(again.json().get("href").asText());

            assertThat(end.get("status").asText()).as(end.toString()).isEqualTo("COMPLETED");
            assertThat(end.get("exit_status").asText())
                    .matches("RESCANNED=\\d+,TAKEN_DOWN=\\d+,SKIPPED=\\d+,FAILED=\\d+");
            assertThat(incidents(vulnerable)).as("no second incident").isEqualTo(1);
            assertThat(status(clean)).isEqualTo("active");
        } finally {
            Files.writeString(advisories, before, StandardCharsets.UTF_8);
        }
    }

    /**
     * An execution started after {@code earlier} that ended with the agent suspended, asked every two seconds: within
     * the minute of the schedule's look plus the run.
     */
    private static JsonNode awaitStartedAndEnded(Set<Long> earlier, String agent) {
        long deadline = System.nanoTime() + Duration.ofSeconds(240).toNanos();
        List<JsonNode> fresh = List.of();
        while (System.nanoTime() < deadline) {
            fresh = executions().stream().filter(e -> !earlier.contains(e.get("id").asLong())).toList();
            if (!fresh.isEmpty() && fresh.stream().noneMatch(AgentRescanIT::running)
                    && status(agent).equals("suspended")) {
                return fresh.get(0);
            }
            Accounts.sleep(2000);
        }
        throw new AssertionError("No agent-rescan execution took agent " + agent + " down within 240 s: " + fresh);
    }

    private static JsonNode awaitEnd(String href) {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            var reply = staff.api().get(href);
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            if (!running(reply.json())) {
                return reply.json();
            }
            Accounts.sleep(1000);
        }
        throw new AssertionError("Execution at " + href + " did not end within 120 s");
    }
}
