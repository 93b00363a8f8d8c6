package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Hostile bundles for the sandbox tests. Each agent is well-behaved on its smoke test (input {@code "hello"}, answer
 * {@code {"result": "hello"}}) so it passes the pre-listing checks, and attacks only on the input
 * {@code {"text": "attack"}}; its report of what the attack achieved comes back as JSON text in {@code result}.
 * What an attack needs (a port, a path, a marker) is written into {@code conf.json} in the bundle when the test
 * builds it, and the modules a scanner would look for are imported by computed names: the point is to meet the
 * sandbox, not to test the static scan (which may still refuse; the tests accept a refusal at submission).
 */
final class HostileAgents {

    static final Map<String, String> ATTACK = Map.of("text", "attack");
    static final Map<String, String> HELLO = Map.of("text", "hello");

    /** The shape of every hostile agent; {@code ATTACK_BODY} defines {@code attack(conf)} returning a dict. */
    private static final String MAIN = """
            import json, sys

            def mod(*parts):
                return __import__("".join(parts))

            ATTACK_BODY

            data = json.load(sys.stdin)
            if data.get("text") == "attack":
                with open("conf.json") as f:
                    conf = json.load(f)
                report = attack(conf)
                print(json.dumps({"output": {"result": json.dumps(report)}}))
            else:
                print(json.dumps({"output": {"result": data.get("text", "")}}))
            """;

    private HostileAgents() {
    }

    /** A card as MarketplaceFixtures builds it, with the given timeout and a filesystem declaration. */
    static ObjectNode card(String base, int timeoutSeconds, boolean filesystem) {
        ObjectNode card = MarketplaceFixtures.card(MarketplaceFixtures.unique(base));
        ((ObjectNode) card.get("runtime")).put("timeout_s", timeoutSeconds);
        if (filesystem) {
            card.putObject("permissions").put("requires_filesystem", true);
        }
        return card;
    }

    /** A Python bundle: {@code attackBody} defines {@code def attack(conf)}; {@code conf} becomes conf.json. */
    static byte[] python(String attackBody, Map<String, ?> conf) {
        String main = MAIN.replace("ATTACK_BODY", attackBody);
        return MarketplaceFixtures.tarGz(tar -> {
            MarketplaceFixtures.file(tar, "main.py", main);
            MarketplaceFixtures.file(tar, "conf.json", Api.json(conf));
        });
    }

    /** A listed agent, or the submission's refusal. */
    record Listing(String id, Reply refusal) {
        boolean refused() {
            return id == null;
        }
    }

    /** Submits as a fresh developer; approves when the submission was accepted. */
    static Listing list(Accounts.Account staff, ObjectNode card, byte[] bundle) {
        var developer = MarketplaceFixtures.developer(staff, "hostile");
        var reply = MarketplaceFixtures.submit(developer.api(), card, bundle);
        if (reply.status() == 422) {
            assertThat(reply.json().get("status").asText()).isEqualTo("rejected");
            return new Listing(null, reply);
        }
        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        String id = reply.json().get("agent_id").asText();
        MarketplaceFixtures.approve(staff, id);
        return new Listing(id, null);
    }

    /**
     * Whether the submission was refused by a pre-listing check that names the bundle's code (the static scan):
     * an accepted outcome for a hostile agent, written to the test's output so the notes can say which happened.
     * A refusal for any other reason fails the test.
     */
    static boolean refusedByScan(Listing listing) {
        if (!listing.refused()) {
            return false;
        }
        assertThat(listing.refusal().body()).as("refused for its code").contains("main.py");
        System.out.println("REFUSED AT SUBMISSION: " + listing.refusal());
        return true;
    }

    /** POST /v1/agents/{id}/invoke. */
    static Reply invoke(Accounts.Account caller, String id, Object input) {
        var reply = caller.api().post("/v1/agents/" + id + "/invoke", input);
        // what each attack met, in the test output, for the notes
        String body = reply.body().length() > 400 ? reply.body().substring(0, 400) + "…" : reply.body();
        System.out.println("INVOKED " + input + ": " + reply.status() + " run status "
                + reply.header("Atrium-Run-Status") + ": " + body);
        return reply;
    }

    /** The attack's own report, when the agent got as far as answering. */
    static JsonNode report(Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        try {
            return Api.JSON.readTree(reply.json().get("result").asText());
        } catch (IOException e) {
            throw new AssertionError(reply.toString(), e);
        }
    }

    /** The gateway's answer to a run that failed: 200, {@code {"error": ...}} and the run's status header. */
    static String failure(Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().has("error")).as(reply.toString()).isTrue();
        assertThat(reply.header("Atrium-Run-Status")).as(reply.toString()).isNotBlank();
        return reply.json().get("error").asText();
    }

    private static final byte[] WELL_BEHAVED = MarketplaceFixtures.tarGz(tar -> MarketplaceFixtures.file(tar,
            "main.py", "import json, sys\nprint(json.dumps({'output': {'result': json.load(sys.stdin)['text']}}))\n"));

    /** A well-behaved agent listed for one test class. */
    static String wellBehaved(Accounts.Account staff) {
        var listing = list(staff, card("calm", 30, false), WELL_BEHAVED);
        assertThat(listing.refused()).as(String.valueOf(listing.refusal())).isFalse();
        return listing.id();
    }

    /** After an attack: the server is healthy and a well-behaved agent still answers. */
    static void stillServing(Accounts.Account caller, String wellBehaved) {
        var health = Api.anonymous().get("/health");
        assertThat(health.status()).as(health.toString()).isEqualTo(200);
        String word = "still-" + UUID.randomUUID().toString().substring(0, 8);
        var reply = invoke(caller, wellBehaved, Map.of("text", word));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().path("result").asText()).as(reply.toString()).isEqualTo(word);
    }

    /** A marker unique to one test, for host-side searches. */
    static String marker() {
        return "atrium" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    /** A {@code sleep} argument unique to one test (GNU sleep takes fractions), to find its process on the host. */
    static String sleepMarker() {
        return "3599." + (100_000_000_000L + (long) (Math.random() * 800_000_000_000L));
    }

    /** Host processes whose command line contains {@code marker} (this test JVM runs on the server's host). */
    static List<Long> hostProcessesWith(String marker) {
        var found = new ArrayList<Long>();
        ProcessHandle.allProcesses().forEach(p -> {
            Path cmdline = Path.of("/proc", Long.toString(p.pid()), "cmdline");
            try {
                if (new String(Files.readAllBytes(cmdline)).replace('\0', ' ').contains(marker)) {
                    found.add(p.pid());
                }
            } catch (IOException | SecurityException e) {
                // gone meanwhile, or not ours to read
            }
        });
        return found;
    }

    /** Waits a little for processes with the marker to disappear; the ones still there. */
    static List<Long> awaitNoProcessesWith(String marker, long seconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Long> left = hostProcessesWith(marker);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Accounts.sleep(200);
            left = hostProcessesWith(marker);
        }
        return left;
    }
}
