package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Versions are rows of their own: a listed agent's new version is reviewed while the current one keeps serving and
 * stays listed; once approved it serves the callers of its rollout's share (a stable bucket per caller and agent),
 * the others keep the current version; a caller pinning a major is served only that major.
 */
@ExtendWith(AtriumServer.class)
class AgentVersionsIT {

    private static Accounts.Account staff;

    @BeforeAll
    static void setUp() {
        staff = MarketplaceFixtures.staff();
    }

    /** The gateway's bucket, computed independently: SHA-256("agentId:userId"), first 4 bytes unsigned, mod 100. */
    static int bucket(String agentId, long userId) throws Exception {
        byte[] hash = MessageDigest.getInstance("SHA-256")
                .digest((UUID.fromString(agentId) + ":" + userId).getBytes(StandardCharsets.UTF_8));
        long first = ((hash[0] & 0xffL) << 24) | ((hash[1] & 0xffL) << 16) | ((hash[2] & 0xffL) << 8)
                | (hash[3] & 0xffL);
        return (int) (first % 100);
    }

    /** A new caller whose bucket for the agent is inside (or outside) the first step's 10 %. */
    static Accounts.Account caller(String agentId, boolean inside) throws Exception {
        for (int attempt = 0; attempt < 200; attempt++) {
            var account = Accounts.verified("caller");
            if (bucket(agentId, account.id()) < 10 == inside) {
                return account;
            }
        }
        throw new AssertionError("no caller found in 200 attempts");
    }

    private static String served(Accounts.Account caller, String agentId, String query) {
        var reply = caller.api().post("/v1/agents/" + agentId + "/invoke" + query, Map.of("text", "hi"));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("result").asText()).isEqualTo("hi");
        return reply.header("Atrium-Agent-Version");
    }

    private static int submit(Accounts.Account author, ObjectNode card, String version) {
        card.put("version", version);
        return MarketplaceFixtures.submit(author.api(), card, InvokeFixtures.PYTHON_ECHO).status();
    }

    @Test
    void whenAListedAgentGetsNewVersionsThenTheCurrentServesWhileTheyAreReviewedAndRollOutByBucketAndMajor()
            throws Exception {
        ObjectNode card = InvokeFixtures.pythonCard("versions");
        var agent = InvokeFixtures.listed(staff, card, InvokeFixtures.PYTHON_ECHO);
        String id = agent.id();
        var inside = caller(id, true);
        var outside = caller(id, false);

        assertThat(submit(agent.author(), card, "1.1.0")).isEqualTo(202);
        var listed = Api.anonymous().get("/v1/agents/" + id);
        assertThat(listed.status()).as("still listed while 1.1.0 waits for review").isEqualTo(200);
        assertThat(listed.json().get("status").asText()).isEqualTo("active");
        assertThat(listed.json().get("version").asText()).isEqualTo("1.0.0");
        assertThat(served(inside, id, "")).isEqualTo("1.0.0");
        assertThat(submit(agent.author(), card, "1.0.5")).as("lower than the newest version submitted")
                .isEqualTo(409);

        MarketplaceFixtures.approve(staff, id);
        for (int i = 0; i < 3; i++) {
            assertThat(served(inside, id, "")).as("sticky inside the 10 %").isEqualTo("1.1.0");
            assertThat(served(outside, id, "")).as("sticky outside the 10 %").isEqualTo("1.0.0");
        }
        assertThat(Api.anonymous().get("/v1/agents/" + id).json().get("version").asText())
                .as("the listing shows the current version until the rollout completes").isEqualTo("1.0.0");

        assertThat(submit(agent.author(), card, "2.0.0")).isEqualTo(202);
        MarketplaceFixtures.approve(staff, id);
        assertThat(served(inside, id, "")).as("the newer candidate replaced 1.1.0").isEqualTo("2.0.0");
        assertThat(served(inside, id, "?version=1")).as("a pinned major never gets 2.x").isEqualTo("1.0.0");
        assertThat(served(outside, id, "?version=2")).as("pinning the new major opts in").isEqualTo("2.0.0");
        assertThat(served(outside, id, "?version=v1")).isEqualTo("1.0.0");

        var missing = inside.api().post("/v1/agents/" + id + "/invoke?version=3", Map.of("text", "hi"));
        assertThat(missing.status()).as(missing.toString()).isEqualTo(404);
        var garbage = inside.api().post("/v1/agents/" + id + "/invoke?version=1.0", Map.of("text", "hi"));
        assertThat(garbage.status()).as(garbage.toString()).isEqualTo(422);
        assertThat(garbage.json().at("/error/details").asText()).startsWith("version:");

        var history = agent.author().api().get("/v1/agents/" + id + "/history?sort=created_at&limit=50");
        assertThat(history.json().get("items")).extracting(n -> n.get("action").asText() + " " + n.get("version")
                .asText()).containsSubsequence("submitted 1.0.0", "approved 1.0.0", "resubmitted 1.1.0",
                "approved 1.1.0", "rollout_started 1.1.0", "resubmitted 2.0.0", "approved 2.0.0",
                "rollout_started 2.0.0");
        var versions = InvokeFixtures.rows("SELECT version, status FROM agent_versions WHERE agent_id = ? "
                + "ORDER BY created_at", UUID.fromString(id));
        assertThat(versions).extracting(r -> r.get("version") + " " + r.get("status"))
                .containsExactly("1.0.0 APPROVED", "1.1.0 APPROVED", "2.0.0 APPROVED");
        assertThat(InvokeFixtures.rows("SELECT agent_version FROM agent_usage_records WHERE agent_id = ?",
                UUID.fromString(id))).extracting(r -> r.get("agent_version"))
                .contains("1.0.0", "1.1.0", "2.0.0");
    }

    @Test
    void whenAListedAgentsNewVersionIsRejectedThenTheCurrentVersionStaysListedAndServing() throws Exception {
        ObjectNode card = InvokeFixtures.pythonCard("rejectnew");
        var agent = InvokeFixtures.listed(staff, card, InvokeFixtures.PYTHON_ECHO);

        assertThat(submit(agent.author(), card, "1.1.0")).isEqualTo(202);
        var rejected = staff.api().post("/v1/admin/agents/" + agent.id() + "/reject",
                Map.of("reasons", List.of("The new description promises what it does not do")));

        assertThat(rejected.status()).as(rejected.toString()).isEqualTo(200);
        assertThat(rejected.json().get("status").asText()).isEqualTo("active");
        assertThat(served(caller(agent.id(), true), agent.id(), "")).isEqualTo("1.0.0");
        assertThat(submit(agent.author(), card, "1.1.0")).as("a version number is used once").isEqualTo(409);
        assertThat(submit(agent.author(), card, "1.1.1")).isEqualTo(202);
    }
}
