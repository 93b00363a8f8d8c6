package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Agents calling their declared dependencies at run time, for real: each run of an agent with dependencies gets the
 * invoke gateway through its sandbox's proxy and a dependency token; the nested call is the user's own invocation.
 * Refused: an undeclared agent, a cycle, a chain deeper than 3, a token after its run, a token elsewhere than the
 * invoke path, and any other host.
 */
@ExtendWith(AtriumServer.class)
class DependencyCallsIT {

    /**
     * Answers {@code text} as {@code result}; with {@code call: [a, b, …]} first calls {@code a} through the gateway
     * with {@code call: [b, …]} and answers a's result, the status of that call and its answer ({@code inner});
     * {@code probe: port} tries another host and the server's port directly; {@code leak_token} answers the token.
     */
    static final byte[] RELAY = MarketplaceFixtures.tarGz(tar -> MarketplaceFixtures.file(tar, "main.py", """
            import json, os, socket, sys, urllib.error, urllib.request
            data = json.load(sys.stdin)
            text = data.get("text", "")
            calls = data.get("call", [])
            out = {"result": text}
            if calls:
                body = json.dumps({"text": text, "call": calls[1:]}).encode()
                request = urllib.request.Request(os.environ["ATRIUM_INVOKE_URL"] + "/" + calls[0] + "/invoke",
                                                 data=body, method="POST", headers={
                                                     "Authorization": "Bearer " + os.environ["ATRIUM_INVOKE_TOKEN"],
                                                     "Content-Type": "application/json"})
                try:
                    with urllib.request.urlopen(request, timeout=25) as r:
                        reply = json.loads(r.read())
                        out["result"] = reply.get("result", "")
                        out["status"] = r.status
                        out["inner"] = json.dumps(reply)
                except urllib.error.HTTPError as e:
                    out["status"] = e.code
                    out["inner"] = e.read().decode()[:1000]
                except Exception as e:
                    out["status"] = 0
                    out["inner"] = str(e)[:300]
            if data.get("probe"):
                try:
                    urllib.request.urlopen("http://example.com/", timeout=3)
                    out["example"] = "reached"
                except Exception as e:
                    out["example"] = str(getattr(e, "code", "failed"))
                try:
                    socket.create_connection(("127.0.0.1", data["probe"]), timeout=3)
                    out["direct"] = "connected"
                except OSError:
                    out["direct"] = "failed"
            if data.get("leak_token"):
                out["token"] = os.environ.get("ATRIUM_INVOKE_TOKEN", "")
            print(json.dumps({"output": out, "usage": {"tokens_input": 1, "tokens_output": 1}}))
            """));

    private static Accounts.Account staff;

    @BeforeAll
    static void staff() {
        staff = MarketplaceFixtures.staff();
    }

    private static ObjectNode card(String base, String... dependencies) {
        ObjectNode card = MarketplaceFixtures.card(MarketplaceFixtures.unique(base));
        var properties = (ObjectNode) card.get("input_schema").get("properties");
        properties.putObject("call").put("type", "array").putObject("items").put("type", "string");
        properties.putObject("probe").put("type", "integer");
        properties.putObject("leak_token").put("type", "boolean");
        if (dependencies.length > 0) {
            var list = card.putObject("dependencies").putArray("agents");
            for (String d : dependencies) {
                list.addObject().put("name", d).put("version", ">=1.0.0");
            }
        }
        return card;
    }

    /** Lists the card's agent; answers its name. */
    private static String listed(ObjectNode card) {
        InvokeFixtures.listed(staff, card, RELAY);
        return card.get("name").asText();
    }

    /** Invokes as the user, agreeing to pay for the dependency calls too (each agent here costs 0.01 a call). */
    private static JsonNode invoke(Accounts.Account user, String agent, Map<String, Object> input) {
        var reply = InvokeFixtures.invoke(user.api().header("Atrium-Max-Price-Usd", "1"), agent, input);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json();
    }

    private static List<String> usedAgents(Accounts.Account user) throws Exception {
        return InvokeFixtures.rows("SELECT a.name FROM agent_usage_records u JOIN agents a ON a.id = u.agent_id "
                + "WHERE u.user_id = ? ORDER BY u.recorded_at", user.id()).stream()
                .map(r -> (String) r.get("name")).toList();
    }

    @Test
    void whenAnAgentCallsItsDependencyThenBothRunAsTheUsersOwnInvocations() throws Exception {
        String b = listed(card("dep-b"));
        String a = listed(card("dep-a", b));
        var user = Accounts.verified("dep-user");

        var answer = invoke(user, a, Map.of("text", "from the top", "call", List.of(b)));

        assertThat(answer.get("status").asInt()).as(answer.toString()).isEqualTo(200);
        assertThat(answer.get("result").asText()).isEqualTo("from the top");
        assertThat(usedAgents(user)).containsExactlyInAnyOrder(a, b);
    }

    @Test
    void whenAnAgentCallsAnAgentItDidNotDeclareOrItselfThenTheGatewayRefuses() throws Exception {
        String b = listed(card("dep-b"));
        String other = listed(card("dep-other"));
        String a = listed(card("dep-a", b));
        var user = Accounts.verified("dep-user");

        var undeclared = invoke(user, a, Map.of("text", "x", "call", List.of(other)));
        var itself = invoke(user, a, Map.of("text", "x", "call", List.of(a)));

        assertThat(undeclared.get("status").asInt()).as(undeclared.toString()).isEqualTo(403);
        assertThat(undeclared.get("inner").asText()).contains("40302");
        assertThat(itself.get("status").asInt()).as(itself.toString()).isEqualTo(409);
        assertThat(itself.get("inner").asText()).contains("40901").contains("already running");
        assertThat(usedAgents(user)).containsOnly(a).hasSize(2);
    }

    @Test
    void whenAChainWouldHoldAFourthAgentThenTheThirdAgentsCallIsRefused() throws Exception {
        String d = listed(card("dep-d"));
        String c = listed(card("dep-c", d));
        String b = listed(card("dep-b", c));
        String a = listed(card("dep-a", b));
        var user = Accounts.verified("dep-user");

        var answer = invoke(user, a, Map.of("text", "deep", "call", List.of(b, c, d)));

        assertThat(answer.get("status").asInt()).as(answer.toString()).isEqualTo(200);
        assertThat(answer.toString()).contains("40901").contains("at most 3 agents");
        assertThat(usedAgents(user)).containsExactlyInAnyOrder(a, b, c);
    }

    @Test
    void whenTheRunHasEndedThenItsTokenIsWorthNothingAndNeverWasElsewhere() throws Exception {
        String b = listed(card("dep-b"));
        String a = listed(card("dep-a", b));
        var user = Accounts.verified("dep-user");

        var answer = invoke(user, a, Map.of("text", "x", "call", List.of(b), "leak_token", true));
        String token = answer.get("token").asText();

        assertThat(token).startsWith("atd_");
        var after = Api.anonymous().withToken(token);
        assertThat(after.post("/v1/agents/" + b + "/invoke", Map.of("text", "x")).status()).isEqualTo(401);
        assertThat(after.get("/api/v1/users/me").status()).isEqualTo(401);
        assertThat(after.get("/v1/agents/" + b + "/invoke").status()).isIn(401, 405);
        String forged = "atd_" + UUID.randomUUID().toString().replace("-", "") + "0123456789a";
        var refused = Api.anonymous().withToken(forged).post("/v1/agents/" + b + "/invoke", Map.of("text", "x"));
        assertThat(refused.status()).as(refused.toString()).isEqualTo(401);
        assertThat(refused.json().get("error").get("code").asInt()).isEqualTo(40100);
    }

    @Test
    void whenAnAgentWithDependenciesReachesForAnythingElseThenNothingAnswers() throws Exception {
        String b = listed(card("dep-b"));
        String a = listed(card("dep-a", b));
        var user = Accounts.verified("dep-user");
        int port = java.net.URI.create(AtriumServer.get().baseUrl()).getPort();

        var answer = invoke(user, a, Map.of("text", "x", "probe", port));

        assertThat(answer.get("example").asText()).as(answer.toString()).isEqualTo("403");
        assertThat(answer.get("direct").asText()).isEqualTo("failed");
    }
}
