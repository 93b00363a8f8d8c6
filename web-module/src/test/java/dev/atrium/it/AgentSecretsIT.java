package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An agent's secrets (issue 48, finding 2): its author sets them, write-only; only that agent's runs receive them,
 * and only for names its running version declares in {@code permissions.allowed_env_vars}. A stranger's agent
 * declaring the same name gets nothing, a stranger cannot set or list them, and the value shows nowhere: not in the
 * listing, the run records, the server's log, nor in clear in the database.
 */
@ExtendWith(AtriumServer.class)
class AgentSecretsIT {

    private static final String NAME = "ATRIUM_TEST_GREETING";

    private static Accounts.Account staff;
    private static InvokeFixtures.Listed partner;
    private static InvokeFixtures.Listed stranger;

    @BeforeAll
    static void setUp() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        staff = MarketplaceFixtures.staff();
        partner = InvokeFixtures.listed(staff, InvokeFixtures.pythonCard("partner"), InvokeFixtures.PYTHON_ECHO);
        stranger = InvokeFixtures.listed(staff, InvokeFixtures.pythonCard("stranger"), InvokeFixtures.PYTHON_ECHO);
    }

    private static String secrets(String agent) {
        return "/v1/agents/" + agent + "/secrets";
    }

    private static Reply put(Accounts.Account as, String agent, String name, Object value) {
        return as.api().put(secrets(agent) + "/" + name, Map.of("value", value));
    }

    private static String uniqueValue() {
        return "partner-key-" + UUID.randomUUID();
    }

    /** The variables starting with ATRIUM the agent saw, as its "env" answer lists them. */
    private static Map<String, String> environmentOf(String agent) {
        var reply = InvokeFixtures.invoke(Accounts.verified("env-caller").api(), agent, Map.of("text", "env"));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        var env = new java.util.TreeMap<String, String>();
        reply.json().get("env").fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
        return env;
    }

    @Test
    void whenTheAuthorSetsASecretThenOnlyTheirAgentsRunsSeeIt() {
        String value = uniqueValue();

        var set = put(partner.author(), partner.id(), NAME, value);

        assertThat(set.status()).as(set.toString()).isIn(200, 201);
        assertThat(set.body()).doesNotContain(value);
        assertThat(environmentOf(partner.id())).containsEntry(NAME, value);
        assertThat(environmentOf(stranger.id())).as("another author's agent declaring the same name")
                .doesNotContainKey(NAME).isEmpty();
    }

    @Test
    void whenAStrangerTriesToSetListOrDeleteAnotherAuthorsSecretThen404AndNothingChanges() {
        String value = uniqueValue();
        assertThat(put(partner.author(), partner.id(), NAME, value).status()).isIn(200, 201);

        var overwrite = put(stranger.author(), partner.id(), NAME, "the stranger's value");
        var list = stranger.author().api().get(secrets(partner.id()));
        var delete = stranger.author().api().delete(secrets(partner.id()) + "/" + NAME);
        var byReviewer = staff.api().get(secrets(partner.id()));
        var anonymous = Api.anonymous().put(secrets(partner.id()) + "/" + NAME, Map.of("value", "x"));

        assertThat(overwrite.status()).as(overwrite.toString()).isEqualTo(404);
        assertThat(overwrite.code()).isEqualTo(40400);
        assertThat(list.status()).isEqualTo(404);
        assertThat(delete.status()).isEqualTo(404);
        assertThat(byReviewer.status()).as("not even a reviewer lists them").isEqualTo(404);
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(environmentOf(partner.id())).containsEntry(NAME, value);
    }

    @Test
    void whenTheAuthorListsSecretsThenNamesAndTimesButNeverValues() {
        var author = Accounts.verified("lister");
        var own = InvokeFixtures.listed(staff, InvokeFixtures.pythonCard("lister"), InvokeFixtures.PYTHON_ECHO);
        String value = uniqueValue();
        assertThat(put(own.author(), own.id(), NAME, value).status()).isEqualTo(201);
        assertThat(put(own.author(), own.id(), "ATRIUM_NOT_DECLARED", value).status()).isEqualTo(201);

        var list = own.author().api().get(secrets(own.id()));

        assertThat(list.status()).as(list.toString()).isEqualTo(200);
        assertThat(list.body()).doesNotContain(value).doesNotContain(Base64.getEncoder()
                .encodeToString(value.getBytes(StandardCharsets.UTF_8)));
        var items = list.json().get("items");
        assertThat(items).hasSize(2);
        for (var item : items) {
            assertThat(item.get("name").asText()).isIn(NAME, "ATRIUM_NOT_DECLARED");
            assertThat(item.get("created_at").asText()).endsWith("Z");
            assertThat(item.get("updated_at").asText()).endsWith("Z");
            assertThat(item.get("declared").asBoolean()).isEqualTo(item.get("name").asText().equals(NAME));
            assertThat(item.has("value")).isFalse();
        }
        assertThat(environmentOf(own.id())).as("only declared names are delivered").containsOnlyKeys(NAME);
        assertThat(author.api().get(secrets(own.id())).status()).isEqualTo(404);
    }

    @Test
    void whenASecretIsDeletedThenRunsNoLongerSeeIt() {
        var own = InvokeFixtures.listed(staff, InvokeFixtures.pythonCard("deleter"), InvokeFixtures.PYTHON_ECHO);
        assertThat(put(own.author(), own.id(), NAME, uniqueValue()).status()).isEqualTo(201);

        var deleted = own.author().api().delete(secrets(own.id()) + "/" + NAME);
        var again = own.author().api().delete(secrets(own.id()) + "/" + NAME);

        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(204);
        assertThat(again.status()).isEqualTo(404);
        assertThat(own.author().api().get(secrets(own.id())).json().get("items")).isEmpty();
        assertThat(environmentOf(own.id())).isEmpty();
    }

    @Test
    void whenTheValueIsUsedThenItShowsNowhereAndIsNotStoredInClear() throws Exception {
        var own = InvokeFixtures.listed(staff, InvokeFixtures.pythonCard("hidden"), InvokeFixtures.PYTHON_ECHO);
        String value = uniqueValue();
        assertThat(put(own.author(), own.id(), NAME, value).status()).isEqualTo(201);
        var caller = Accounts.verified("hidden-caller");
        var hello = InvokeFixtures.invoke(caller.api(), own.id(), Map.of("text", "hello"));
        var fail = InvokeFixtures.invoke(caller.api(), own.id(), Map.of("text", "fail"));
        assertThat(hello.status()).isEqualTo(200);
        assertThat(fail.status()).isEqualTo(200);
        var first = InvokeFixtures.rows("SELECT * FROM agent_secrets WHERE agent_id = ?", UUID.fromString(own.id()));
        assertThat(put(own.author(), own.id(), NAME, value).status()).as("replaced").isEqualTo(200);

        assertThat(hello.body()).doesNotContain(value);
        for (var reply : new Reply[] {hello, fail}) {
            var run = caller.api().get("/v1/runs/" + reply.header("Atrium-Run-Id"));
            assertThat(run.status()).isEqualTo(200);
            assertThat(run.body()).doesNotContain(value);
        }
        var runs = own.author().api().get("/v1/agents/" + own.id() + "/runs");
        assertThat(runs.status()).as(runs.toString()).isEqualTo(200);
        assertThat(runs.body()).doesNotContain(value);
        var history = own.author().api().get("/v1/agents/" + own.id() + "/history?page_size=100");
        assertThat(history.status()).isEqualTo(200);
        assertThat(history.body()).contains(NAME).doesNotContain(value);
        assertThat(Files.readString(AtriumServer.get().serverLog())).doesNotContain(value);

        var second = InvokeFixtures.rows("SELECT * FROM agent_secrets WHERE agent_id = ?", UUID.fromString(own.id()));
        assertThat(first).hasSize(1);
        assertThat(second).hasSize(1);
        byte[] plain = value.getBytes(StandardCharsets.UTF_8);
        for (var row : java.util.List.of(first.get(0), second.get(0))) {
            assertThat(row.get("name")).isEqualTo(NAME);
            byte[] nonce = (byte[]) row.get("nonce");
            byte[] sealed = (byte[]) row.get("ciphertext");
            assertThat(nonce).hasSize(12);
            assertThat(sealed).hasSize(plain.length + 16);
            String stored = row.toString() + HexFormat.of().formatHex(sealed) + new String(sealed,
                    StandardCharsets.ISO_8859_1);
            assertThat(stored).doesNotContain(value).doesNotContain(HexFormat.of().formatHex(plain))
                    .doesNotContain(Base64.getEncoder().encodeToString(plain));
        }
        assertThat((byte[]) second.get(0).get("nonce")).as("a new nonce at every write")
                .isNotEqualTo(first.get(0).get("nonce"));
        assertThat((byte[]) second.get(0).get("ciphertext")).isNotEqualTo(first.get(0).get("ciphertext"));
    }

    @Test
    void whenASealedValueIsMovedToAnotherAgentThenThatAgentCannotOpenIt() throws Exception {
        var victim = InvokeFixtures.listed(staff, InvokeFixtures.pythonCard("victim"), InvokeFixtures.PYTHON_ECHO);
        var thief = InvokeFixtures.listed(staff, InvokeFixtures.pythonCard("thief"), InvokeFixtures.PYTHON_ECHO);
        String value = uniqueValue();
        assertThat(put(victim.author(), victim.id(), NAME, value).status()).isEqualTo(201);
        assertThat(put(thief.author(), thief.id(), NAME, "the thief's own").status()).isEqualTo(201);

        // someone with write access to the database copies the victim's sealed value over the thief's
        InvokeFixtures.update("UPDATE agent_secrets SET nonce = v.nonce, ciphertext = v.ciphertext FROM "
                + "(SELECT nonce, ciphertext FROM agent_secrets WHERE agent_id = ? AND name = ?) v "
                + "WHERE agent_id = ? AND name = ?", UUID.fromString(victim.id()), NAME, UUID.fromString(thief.id()),
                NAME);

        assertThat(environmentOf(thief.id())).as("sealed to the victim's agent and name").isEmpty();
        assertThat(environmentOf(victim.id())).containsEntry(NAME, value);
    }

    @Test
    void whenNamesOrValuesAreHostileThenTheyAreRefusedInTheEnvelope() {
        var own = InvokeFixtures.listed(staff, InvokeFixtures.pythonCard("hostile"), InvokeFixtures.PYTHON_ECHO);
        var author = own.author();

        for (String name : new String[] {"1STARTS_WITH_DIGIT", "HAS-DASH", "HAS%20SPACE", "A".repeat(129),
                "PATH", "ATRIUM_INVOKE_TOKEN", "HTTPS_PROXY"}) {
            var reply = put(author, own.id(), name, "x");
            assertThat(reply.status()).as(name + ": " + reply).isEqualTo(422);
            assertThat(reply.code()).isEqualTo(40001);
        }
        var tooLong = put(author, own.id(), "BIG", "x".repeat(4097));
        assertThat(tooLong.status()).as(tooLong.toString()).isEqualTo(413);
        assertThat(tooLong.code()).isEqualTo(41300);
        var multiByte = put(author, own.id(), "BIG", "\u00e9".repeat(2049));
        assertThat(multiByte.status()).as("counted in UTF-8 bytes").isEqualTo(413);
        for (Object bad : new Object[] {"", "nul\u0000inside"}) {
            var reply = put(author, own.id(), "BAD", bad);
            assertThat(reply.status()).as(bad + ": " + reply).isEqualTo(422);
            assertThat(reply.body()).doesNotContain("nul\u0000inside");
        }
        var missing = author.api().put(secrets(own.id()) + "/MISSING", Map.of("other", "x"));
        assertThat(missing.status()).isEqualTo(422);
        assertThat(put(author, own.id(), "A".repeat(128), "x").status()).isEqualTo(201);
        for (int i = 1; i < 20; i++) {
            assertThat(put(author, own.id(), "S" + i, "v").status()).as("secret " + (i + 1)).isEqualTo(201);
        }
        var over = put(author, own.id(), "ONE_TOO_MANY", "v");
        assertThat(over.status()).as(over.toString()).isEqualTo(422);
        assertThat(over.json().at("/error/message").asText()).contains("20");
        assertThat(put(author, own.id(), "S1", "replacing is fine").status()).isEqualTo(200);
        assertThat(author.api().get(secrets(own.id())).json().get("items")).hasSize(20);
    }
}
