package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Agents for the invoke gateway's tests, built as real bundles: a Python agent that echoes what it received (so a
 * test sees the masking) and reports usage, and a shell agent that can sleep. Both satisfy their cards' test case
 * (input {@code {"text": "hello"}}, output with {@code result: "hello"}), so they pass the pre-listing checks.
 */
final class InvokeFixtures {

    /**
     * Echoes {@code text} as {@code result} and the whole input as {@code seen}; reports a token per character.
     * {@code leak} adds an e-mail address to the output, {@code big} reports 60,000 input tokens, {@code fail}
     * writes a log line with an e-mail address and exits 3, {@code env} answers the names of its environment.
     */
    static final byte[] PYTHON_ECHO = MarketplaceFixtures.tarGz(tar -> MarketplaceFixtures.file(tar, "main.py", """
            import json, os, sys
            data = json.load(sys.stdin)
            text = data.get("text", "")
            out = {"result": text, "seen": json.dumps(data, sort_keys=True)}
            usage = {"tokens_input": len(text), "tokens_output": len(text), "cost_llm": 0.0001}
            if text == "leak":
                out["contact"] = "jane.roe@example.com"
            if text == "big":
                usage["tokens_input"] = 60000
            if text == "fail":
                sys.stderr.write("failing; write to jane.roe@example.com\\n")
                sys.exit(3)
            if text == "env":
                out["env"] = {k: v for k, v in os.environ.items() if k.startswith("ATRIUM")}
            print(json.dumps({"output": out, "usage": usage}))
            """));

    /** Answers {@code {"result": "hello", "shell": true}}; sleeps 60 s first when the input contains "sleep". */
    static final byte[] SHELL = MarketplaceFixtures.tarGz(tar -> MarketplaceFixtures.file(tar, "main.sh", """
            read -r line
            case "$line" in
              *sleep*) sleep 60 ;;
            esac
            printf '{"output": {"result": "hello", "shell": true}}\\n'
            """));

    private InvokeFixtures() {
    }

    /** The Python echo agent's card: {@code text} required, {@code count} an optional integer. */
    static ObjectNode pythonCard(String base) {
        ObjectNode card = MarketplaceFixtures.card(MarketplaceFixtures.unique(base));
        ((ObjectNode) card.get("input_schema").get("properties")).putObject("count").put("type", "integer");
        ObjectNode permissions = card.putObject("permissions");
        permissions.putArray("allowed_env_vars").add("ATRIUM_TEST_GREETING").add("ATRIUM_TEST_UNSET");
        return card;
    }

    /** The shell agent's card with its timeout. */
    static ObjectNode shellCard(String base, int timeoutSeconds) {
        ObjectNode card = MarketplaceFixtures.card(MarketplaceFixtures.unique(base));
        ObjectNode runtime = (ObjectNode) card.get("runtime");
        runtime.put("timeout_s", timeoutSeconds);
        runtime.putArray("entrypoint").add("sh").add("main.sh");
        return card;
    }

    /** A listed agent and its author. */
    record Listed(String id, Accounts.Account author) {
    }

    /** Submitted by a fresh author (the free tier publishes 3 agents each) and approved. */
    static Listed listed(Accounts.Account staff, ObjectNode card, byte[] bundle) {
        var author = Accounts.verified("agent-dev");
        var reply = MarketplaceFixtures.submit(author.api(), card, bundle);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        String id = reply.json().get("agent_id").asText();
        MarketplaceFixtures.approve(staff, id);
        return new Listed(id, author);
    }

    /** An API key of the account, and a client speaking with it. */
    static Api withApiKey(Accounts.Account account) {
        var key = account.api().post("/api-keys");
        assertThat(key.status()).as(key.toString()).isIn(200, 201);
        return Api.anonymous().withToken(key.json().get("api_key").asText());
    }

    static Reply invoke(Api api, String agent, Object input) {
        return api.post("/v1/agents/" + agent + "/invoke", input);
    }

    /** Runs a change directly on the server's database, as someone with write access to it would; the rows changed. */
    static int update(String sql, Object... parameters) throws Exception {
        var server = AtriumServer.get();
        try (var c = DriverManager.getConnection(server.jdbcUrl(), AtriumServer.Services.postgresUser(), "");
             var q = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                q.setObject(i + 1, parameters[i]);
            }
            return q.executeUpdate();
        }
    }

    /** The rows a query answers, each as column name to value. */
    static List<Map<String, Object>> rows(String sql, Object... parameters) throws Exception {
        var server = AtriumServer.get();
        try (var c = DriverManager.getConnection(server.jdbcUrl(), AtriumServer.Services.postgresUser(), "");
             var q = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                q.setObject(i + 1, parameters[i]);
            }
            try (var r = q.executeQuery()) {
                var rows = new ArrayList<Map<String, Object>>();
                while (r.next()) {
                    var row = new LinkedHashMap<String, Object>();
                    for (int i = 1; i <= r.getMetaData().getColumnCount(); i++) {
                        row.put(r.getMetaData().getColumnLabel(i), r.getObject(i));
                    }
                    rows.add(row);
                }
                return rows;
            }
        }
    }
}
