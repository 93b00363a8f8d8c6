package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Gradual rollout through the running server: real invocations feed each version's figures, the server clock moves
 * across the 24 h steps, and the evaluation (the minute timer's, called here by an operator) advances 10 → 50 → 100 %
 * or restores the current version when the candidate's quality falls. Administrators pause, resume, promote and roll
 * back; every move is in the history.
 */
@ExtendWith(AtriumServer.class)
class RolloutIT {

    /** Succeeds on the smoke test's "hello", fails (exit 2) on anything else: a version that broke in production. */
    static final byte[] BROKEN = MarketplaceFixtures.tarGz(tar -> MarketplaceFixtures.file(tar, "main.py", """
            import json, sys
            data = json.load(sys.stdin)
            text = data.get("text", "")
            if text != "hello":
                sys.stderr.write("broken for anything but hello\\n")
                sys.exit(2)
            print(json.dumps({"output": {"result": text}}))
            """));

    private static Accounts.Account staff;

    @BeforeAll
    static void setUp() {
        staff = MarketplaceFixtures.staff();
    }

    /** The account signed in anew: the clock moves past its tokens' lifetime. */
    private static Accounts.Account fresh(Accounts.Account account) {
        return Accounts.login(Api.anonymous(), account.email(), account.username());
    }

    /** A new caller whose bucket for the agent lies in [from, to). */
    private static Accounts.Account caller(String agentId, int from, int to) throws Exception {
        for (int attempt = 0; attempt < 300; attempt++) {
            var account = Accounts.verified("rollout-caller");
            int bucket = AgentVersionsIT.bucket(agentId, account.id());
            if (bucket >= from && bucket < to) {
                return account;
            }
        }
        throw new AssertionError("no caller in buckets " + from + ".." + to);
    }

    /** {@code times} invocations; answers the versions that served them. */
    private static List<String> feed(Accounts.Account caller, String agentId, int times) {
        var signedIn = fresh(caller);
        return java.util.stream.IntStream.range(0, times).mapToObj(i -> {
            var reply = signedIn.api().post("/v1/agents/" + agentId + "/invoke", Map.of("text", "hi"));
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            return reply.header("Atrium-Agent-Version");
        }).distinct().toList();
    }

    private static JsonNode rollout(Accounts.Account who, String agentId) {
        var reply = fresh(who).api().get("/v1/agents/" + agentId + "/rollout");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json();
    }

    private static int evaluate() {
        var reply = fresh(staff).api().post("/v1/admin/rollouts/evaluate");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json().get("moved").asInt();
    }

    private static String newVersion(InvokeFixtures.Listed agent, ObjectNode card, String version, byte[] bundle) {
        card.put("version", version);
        var reply = MarketplaceFixtures.submit(agent.author().api(), card, bundle);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        MarketplaceFixtures.approve(staff, agent.id());
        return agent.id();
    }

    private static List<String> moves(InvokeFixtures.Listed agent) {
        var history = fresh(agent.author()).api().get("/v1/agents/" + agent.id() + "/history?sort=created_at&limit=100");
        assertThat(history.status()).as(history.toString()).isEqualTo(200);
        var moves = new java.util.ArrayList<String>();
        history.json().get("items").forEach(n -> {
            if (n.get("action").asText().startsWith("roll")) {
                moves.add(n.get("action").asText() + " " + n.get("version").asText());
            }
        });
        return moves;
    }

    @Test
    void whenTheCandidatesQualityHoldsForEachStepThenTenThenFiftyThenEveryCaller() throws Exception {
        ObjectNode card = InvokeFixtures.pythonCard("rollout-ok");
        var agent = InvokeFixtures.listed(staff, card, InvokeFixtures.PYTHON_ECHO);
        String id = newVersion(agent, card, "1.1.0", InvokeFixtures.PYTHON_ECHO);
        var early = caller(id, 0, 10);
        var late = caller(id, 50, 100);
        int calls = AtriumServer.ROLLOUT_MIN_CALLS;
        try (var clock = ServerClock.borrowed()) {
            assertThat(feed(early, id, calls)).containsExactly("1.1.0");
            assertThat(feed(late, id, calls)).containsExactly("1.0.0");
            JsonNode first = rollout(agent.author(), id);
            assertThat(first.get("state").asText()).isEqualTo("rolling_out");
            assertThat(first.get("percent").asInt()).isEqualTo(10);
            assertThat(first.at("/candidate/version").asText()).isEqualTo("1.1.0");
            assertThat(first.at("/current/version").asText()).isEqualTo("1.0.0");
            assertThat(first.at("/figures/candidate/calls").asLong()).isEqualTo(calls);
            assertThat(first.at("/figures/current/success_rate").asDouble()).isEqualTo(1.0);
            evaluate();
            assertThat(rollout(agent.author(), id).get("percent").asInt()).as("the step is not over").isEqualTo(10);

            clock.advance(Duration.ofHours(25));
            evaluate();
            JsonNode second = rollout(agent.author(), id);
            assertThat(second.get("percent").asInt()).isEqualTo(50);
            assertThat(feed(early, id, calls)).containsExactly("1.1.0");
            assertThat(feed(late, id, calls)).containsExactly("1.0.0");

            clock.advance(Duration.ofHours(25));
            evaluate();
            JsonNode done = rollout(agent.author(), id);
            assertThat(done.get("state").asText()).isEqualTo("none");
            assertThat(done.at("/current/version").asText()).isEqualTo("1.1.0");
            assertThat(feed(late, id, 1)).containsExactly("1.1.0");
            assertThat(Api.anonymous().get("/v1/agents/" + id).json().get("version").asText()).isEqualTo("1.1.0");
            assertThat(moves(agent)).containsExactly("rollout_started 1.1.0", "rollout_advanced 1.1.0",
                    "rollout_completed 1.1.0");
        }
    }

    @Test
    void whenTheCandidateFailsWhereTheCurrentSucceedsThenRolledBackAutomaticallyWithTheReason() throws Exception {
        ObjectNode card = InvokeFixtures.pythonCard("rollout-bad");
        var agent = InvokeFixtures.listed(staff, card, InvokeFixtures.PYTHON_ECHO);
        String id = newVersion(agent, card, "1.1.0", BROKEN);
        var early = caller(id, 0, 10);
        var late = caller(id, 10, 100);
        int calls = AtriumServer.ROLLOUT_MIN_CALLS;

        assertThat(feed(early, id, calls)).containsExactly("1.1.0");
        assertThat(feed(late, id, calls)).containsExactly("1.0.0");
        evaluate();

        JsonNode after = rollout(agent.author(), id);
        assertThat(after.get("state").asText()).isEqualTo("none");
        assertThat(after.get("candidate").isNull()).isTrue();
        JsonNode back = after.get("moves").get(0);
        assertThat(back.get("action").asText()).isEqualTo("rolled_back");
        assertThat(back.get("reason_code").asText()).isEqualTo("quality_drop");
        assertThat(back.get("reason").asText()).contains("Success rate 0.0 %", "100.0 %");
        assertThat(feed(early, id, 1)).as("the current version serves everyone again").containsExactly("1.0.0");
        var pinned = fresh(early).api().post("/v1/agents/" + id + "/invoke?version=1", Map.of("text", "hi"));
        assertThat(pinned.header("Atrium-Agent-Version")).as("a dropped version is not served to a pinned major")
                .isEqualTo("1.0.0");
        assertThat(InvokeFixtures.rows("SELECT rolled_back_at FROM agent_versions WHERE agent_id = ? AND version = ?",
                UUID.fromString(id), "1.1.0").get(0).get("rolled_back_at")).isNotNull();
        assertThat(moves(agent)).containsExactly("rollout_started 1.1.0", "rolled_back 1.1.0");
    }

    @Test
    void whenAnAdministratorPausesResumesPromotesAndRollsBackThenEachMoveIsRecorded() throws Exception {
        ObjectNode card = InvokeFixtures.pythonCard("rollout-admin");
        var agent = InvokeFixtures.listed(staff, card, InvokeFixtures.PYTHON_ECHO);
        String id = newVersion(agent, card, "2.0.0", InvokeFixtures.PYTHON_ECHO);
        var admin = staff.api();
        String base = "/v1/admin/agents/" + id + "/rollout/";

        assertThat(admin.post(base + "pause", Map.of()).status()).as("a note is required").isEqualTo(422);
        assertThat(agent.author().api().post(base + "pause", Map.of("note", "mine")).status()).isEqualTo(403);
        assertThat(Accounts.verified("nosy").api().get("/v1/agents/" + id + "/rollout").status()).isEqualTo(404);
        assertThat(admin.post(base + "pause", Map.of("note", "Support tickets about 2.0.0")).status())
                .isEqualTo(200);
        assertThat(admin.post(base + "pause", Map.of("note", "again")).status()).isEqualTo(409);
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofHours(49));
            evaluate();
            JsonNode paused = rollout(agent.author(), id);
            assertThat(paused.get("state").asText()).isEqualTo("paused");
            assertThat(paused.get("percent").asInt()).isEqualTo(10);
            assertThat(paused.get("next_step_due_at").isNull()).isTrue();
        }
        admin = fresh(staff).api();
        assertThat(admin.post(base + "resume", Map.of("note", "Tickets answered")).status()).isEqualTo(200);
        assertThat(admin.post(base + "promote", Map.of("note", "Urgent fix")).status()).isEqualTo(200);
        assertThat(rollout(agent.author(), id).get("percent").asInt()).isEqualTo(50);
        assertThat(admin.post(base + "rollback", Map.of("note", "Changed our mind")).status()).isEqualTo(200);
        assertThat(rollout(agent.author(), id).get("state").asText()).isEqualTo("none");
        assertThat(admin.post(base + "rollback", Map.of("note", "again")).status()).isEqualTo(409);
        assertThat(moves(agent)).containsExactly("rollout_started 2.0.0", "rollout_paused 2.0.0",
                "rollout_resumed 2.0.0", "rollout_advanced 2.0.0", "rolled_back 2.0.0");

        var everyone = Api.anonymous().get("/v1/agents/" + id + "/versions");
        assertThat(everyone.status()).as(everyone.toString()).isEqualTo(200);
        assertThat(everyone.json().get("items")).extracting(n -> n.get("version").asText())
                .containsExactlyInAnyOrder("1.0.0", "2.0.0");
        card.put("version", "2.1.0");
        assertThat(MarketplaceFixtures.submit(fresh(agent.author()).api(), card, InvokeFixtures.PYTHON_ECHO).status())
                .isEqualTo(202);
        assertThat(Api.anonymous().get("/v1/agents/" + id + "/versions").json().get("items")).hasSize(2);
        var mine = fresh(agent.author()).api().get("/v1/agents/" + id + "/versions?status=pending_review");
        assertThat(mine.json().get("items")).extracting(n -> n.get("version").asText()).containsExactly("2.1.0");
        assertThat(mine.json().at("/items/0/review_state").asText()).isEqualTo("pending_review");
    }
}
