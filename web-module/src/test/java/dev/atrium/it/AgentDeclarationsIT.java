package dev.atrium.it;

import static dev.atrium.it.MarketplaceFixtures.card;
import static dev.atrium.it.MarketplaceFixtures.submit;
import static dev.atrium.it.MarketplaceFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The card's declarations through the server: {@code permissions.max_cpu_percent} capped by the trust level's CPU
 * ceiling (shown in GET /v1/agents/{id} {@code limits}) and applied by the run's cgroup, read here from the host's
 * cgroup tree while the agent spins; capability declarations in the A2A card's skills and in search, and hostile or
 * random capability lists answered 202 or 422, never 500.
 */
@ExtendWith(AtriumServer.class)
class AgentDeclarationsIT {

    /**
     * Echoes {@code text}; for {@code spin} busy-loops for 3 s and answers the share of one CPU it got (its own CPU
     * time over the loop's wall time). The entrypoint names a token, so the test finds the run's cgroup by it.
     */
    private static final byte[] SPIN = MarketplaceFixtures.tarGz(tar -> MarketplaceFixtures.file(tar, "main.py", """
            import json, sys, time
            text = json.load(sys.stdin)["text"]
            out = {"result": text}
            if text == "spin":
                wall, cpu = time.monotonic(), time.process_time()
                while time.monotonic() - wall < 3.0:
                    pass
                out["cpu_share"] = (time.process_time() - cpu) / (time.monotonic() - wall)
            print(json.dumps({"output": out}))
            """));

    private static Accounts.Account staff;

    @BeforeAll
    static void servicesOnly() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        staff = MarketplaceFixtures.staff();
    }

    private static ObjectNode spinCard(String token, int cpuPercent) {
        ObjectNode card = card(unique("spinner"));
        card.withObject("/runtime").putArray("entrypoint").add("python3").add("main.py").add(token);
        card.putObject("permissions").put("max_cpu_percent", cpuPercent);
        return card;
    }

    @Test
    void whenCpuIsDeclaredWithinTheCeilingThenTheRunsCgroupHasThatQuota() throws Exception {
        String token = "cpu" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        var agent = InvokeFixtures.listed(staff, spinCard(token, 20), SPIN);
        var caller = InvokeFixtures.withApiKey(Accounts.verified("spin-caller"));

        assertThat(staff.api().get("/v1/agents/" + agent.id()).json().at("/limits/cpu_percent").asInt())
                .isEqualTo(20);
        var run = CompletableFuture.supplyAsync(() -> InvokeFixtures.invoke(caller, agent.id(),
                Map.of("text", "spin")));
        Optional<Double> quota = quotaOfTheRunWith(token, run);
        Reply reply = run.get();

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(quota).as("the run's cgroup was found by its token").hasValue(0.20);
        double share = reply.json().get("cpu_share").asDouble();
        System.out.printf("AgentDeclarationsIT: declared 20 %%, the agent measured %.1f %% of one CPU%n", share * 100);
        // a busy machine can give less than the quota, never more
        assertThat(share).isGreaterThan(0).isLessThanOrEqualTo(0.30);
    }

    @Test
    void whenCpuIsDeclaredAboveTheTrustCeilingThenItIsCappedAndTheCapLiftsWithTrust() throws Exception {
        String token = "cpu" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        var agent = InvokeFixtures.listed(staff, spinCard(token, 150), SPIN);
        var caller = InvokeFixtures.withApiKey(Accounts.verified("spin-caller"));

        JsonNode limits = staff.api().get("/v1/agents/" + agent.id()).json().get("limits");
        assertThat(limits.get("cpu_percent").asInt()).as("capped at the unverified ceiling").isEqualTo(50);
        assertThat(limits.get("memory_mb").asInt()).isEqualTo(256);
        assertThat(limits.get("timeout_s").asInt()).isEqualTo(30);
        assertThat(limits.get("network").asBoolean()).isFalse();
        var run = CompletableFuture.supplyAsync(() -> InvokeFixtures.invoke(caller, agent.id(),
                Map.of("text", "spin")));
        Optional<Double> quota = quotaOfTheRunWith(token, run);
        Reply reply = run.get();
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(quota).hasValue(0.50);
        assertThat(reply.json().get("cpu_share").asDouble()).isLessThanOrEqualTo(0.60);

        InvokeFixtures.update("UPDATE agents SET trust_level = 'COMMUNITY' WHERE id = ?", UUID.fromString(agent.id()));
        int cpus = Runtime.getRuntime().availableProcessors();
        assertThat(staff.api().get("/v1/agents/" + agent.id()).json().at("/limits/cpu_percent").asInt())
                .as("the community ceiling is 100 %").isEqualTo(Math.min(100, 100 * cpus));
    }

    @Test
    void whenCpuIsDeclaredOutsideTheSchemaThenRejectedWithItsPointer() {
        var dev = MarketplaceFixtures.developer(staff, "cpu-bounds");
        for (Object value : List.of(5, 201, 50.5, "50", -1)) {
            ObjectNode card = card(unique("cpu-bounds"));
            card.putObject("permissions").putPOJO("max_cpu_percent", value);

            var reply = submit(dev.api(), card, MarketplaceFixtures.HELLO_BUNDLE);

            assertThat(reply.status()).as(value + ": " + reply).isEqualTo(422);
            assertThat(reply.json().get("status").asText()).isEqualTo("rejected");
            assertThat(reply.json().get("errors")).as(reply.toString())
                    .anyMatch(e -> e.get("pointer").asText().equals("/permissions/max_cpu_percent"));
        }
    }

    @Test
    void whenCapabilitiesAreDeclaredThenSkillsAndSearchUseTheirDescriptions() {
        String word = "quorvex" + UUID.randomUUID().toString().replace("-", "").substring(0, 6);
        ObjectNode card = card(unique("declared"));
        ArrayNode capabilities = card.putArray("capabilities");
        capabilities.add("summarize-documents");
        ObjectNode tables = capabilities.addObject().put("name", "extract-tables")
                .put("description", "Finds the " + word + " tables of a document and returns them as CSV")
                .put("confidence", 0.8);
        tables.putArray("input_types").add("application/pdf");
        tables.putArray("output_types").add("text/csv");
        String id = MarketplaceFixtures.listed(staff, card);

        var agent = staff.api().get("/v1/agents/" + id).json();
        assertThat(agent.get("capabilities")).extracting(JsonNode::asText)
                .containsExactly("summarize-documents", "extract-tables");
        assertThat(agent.at("/agent_card/capabilities/1/confidence").asDouble()).isEqualTo(0.8);

        JsonNode skills = Api.anonymous().get("/v1/agents/" + id + "/a2a-card").json().get("skills");
        assertThat(skills).hasSize(2);
        assertThat(skills.get(0).get("id").asText()).isEqualTo("summarize-documents");
        assertThat(skills.get(0).get("description").asText()).startsWith("summarize documents: ");
        assertThat(skills.get(0).at("/inputModes/0").asText()).isEqualTo("application/json");
        assertThat(skills.get(1).get("id").asText()).isEqualTo("extract-tables");
        assertThat(skills.get(1).get("description").asText()).contains(word);
        assertThat(skills.get(1).get("inputModes")).extracting(JsonNode::asText).containsExactly("application/pdf");
        assertThat(skills.get(1).get("outputModes")).extracting(JsonNode::asText).containsExactly("text/csv");

        // the word is only in the capability's description: the keyword half of hybrid search finds it there
        var found = MarketplaceFixtures.awaitSearch(Api.anonymous(), "mode=hybrid&q=" + word,
                r -> MarketplaceFixtures.ids(r).contains(id));
        assertThat(MarketplaceFixtures.ids(found)).as(found.toString()).contains(id);
    }

    @Test
    void whenCapabilitiesAreHostileThenRejectedWithPointers() {
        var dev = MarketplaceFixtures.developer(staff, "caps-hostile");
        for (String capabilities : List.of("[{\"name\": \"ocr\", \"confidence\": 2}]", "[42]", "[]",
                "[\"ocr\", {\"name\": \"ocr\"}]", "[{\"name\": \"ocr\", \"description\": \"" + "d".repeat(600) + "\"}]",
                "[{\"name\": \"ocr\", \"input_types\": [\"not a media type\"]}]", "\"ocr\"")) {
            ObjectNode card = card(unique("caps-hostile"));
            card.set("capabilities", readTree(capabilities));

            var reply = submit(dev.api(), card, MarketplaceFixtures.HELLO_BUNDLE);

            assertThat(reply.status()).as(capabilities + ": " + reply).isEqualTo(422);
            assertThat(reply.json().at("/error/code").asInt()).isEqualTo(40001);
            assertThat(reply.json().get("errors")).as(reply.toString())
                    .anyMatch(e -> e.get("pointer").asText().startsWith("/capabilities"));
        }
    }

    /**
     * Random capability lists on image-only cards (no bundle to run, so an accepted one costs no sandbox run): each
     * answer is 202 or 422 with the envelope, never a 500. An author publishes 3 agents at most, so each acceptance
     * moves to a fresh author.
     */
    @Test
    void whenCapabilitiesAreRandomThenEveryAnswerIsAcceptedOrRejectedNeverAServerError() {
        var random = new Random(20_261_129L);
        var author = MarketplaceFixtures.developer(staff, "caps-random");
        int accepted = 0;
        for (int i = 0; i < 40; i++) {
            String name = unique("caps-random");
            ObjectNode card = card(name);
            card.remove("test_cases");
            ObjectNode runtime = card.putObject("runtime");
            runtime.put("docker_image", "registry.example.com/" + name + ":1.0.0");
            card.set("capabilities", randomCapabilities(random));

            var reply = submit(author.api(), card, null);

            assertThat(reply.status()).as(card.get("capabilities") + ": " + reply).isIn(202, 422);
            if (reply.status() == 422) {
                assertThat(reply.json().at("/error/code").asInt()).isEqualTo(40001);
                assertThat(reply.json().get("errors")).isNotEmpty();
            } else {
                accepted++;
                author = MarketplaceFixtures.developer(staff, "caps-random");
            }
        }
        System.out.println("AgentDeclarationsIT: " + accepted + " of 40 random capability lists accepted");
        assertThat(accepted).isBetween(1, 39);
    }

    private static JsonNode readTree(String json) {
        try {
            return Api.JSON.readTree(json);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static ArrayNode randomCapabilities(Random random) {
        ArrayNode list = Api.JSON.createArrayNode();
        int size = random.nextInt(4) + (random.nextInt(10) == 0 ? 30 : 0);
        for (int i = 0; i < size; i++) {
            switch (random.nextInt(6)) {
                case 0 -> list.add("cap-" + i + "-" + random.nextInt(1000));
                case 1 -> list.add(random.nextInt(100));
                case 2 -> list.addNull();
                default -> {
                    ObjectNode c = list.addObject();
                    if (random.nextInt(5) != 0) {
                        c.put("name", "cap-" + i + "x".repeat(random.nextInt(4) == 0 ? 90 : 1));
                    }
                    if (random.nextBoolean()) {
                        c.put("description", "d".repeat(random.nextInt(3) == 0 ? 501 : 1 + random.nextInt(50)));
                    }
                    if (random.nextBoolean()) {
                        c.put("confidence", random.nextInt(4) == 0 ? 1.5 : random.nextDouble());
                    }
                    if (random.nextBoolean()) {
                        c.putArray("output_types").add(random.nextBoolean() ? "application/json" : "json");
                    }
                    if (random.nextInt(8) == 0) {
                        c.put("extra", 1);
                    }
                }
            }
        }
        return list;
    }

    /**
     * While {@code run} is in flight, finds the sandbox's cgroup whose processes carry {@code token} in their command
     * line and reads its CPU quota as a share of one CPU (v1 {@code cpu.cfs_quota_us} over the period, v2
     * {@code cpu.max}). The server runs on this machine, as the services suite does.
     */
    private static Optional<Double> quotaOfTheRunWith(String token, CompletableFuture<?> run) {
        List<Path> parents = List.of(Path.of("/sys/fs/cgroup/cpu/atrium-sandbox"),
                Path.of("/sys/fs/cgroup/atrium-sandbox"));
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!run.isDone() && System.nanoTime() < deadline) {
            for (Path parent : parents) {
                if (!Files.isDirectory(parent)) {
                    continue;
                }
                try (Stream<Path> groups = Files.list(parent)) {
                    for (Path group : groups.filter(Files::isDirectory).toList()) {
                        if (carries(group, token)) {
                            return Optional.of(quota(group));
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    // a group went away while being read: look again
                }
            }
            Accounts.sleep(50);
        }
        return Optional.empty();
    }

    private static boolean carries(Path group, String token) throws IOException {
        for (String pid : Files.readAllLines(group.resolve("cgroup.procs"))) {
            Path cmdline = Path.of("/proc", pid.trim(), "cmdline");
            if (!pid.isBlank() && Files.exists(cmdline)
                    && new String(Files.readAllBytes(cmdline)).replace('\0', ' ').contains(token)) {
                return true;
            }
        }
        return false;
    }

    private static double quota(Path group) throws IOException {
        if (Files.exists(group.resolve("cpu.max"))) {
            String[] max = Files.readString(group.resolve("cpu.max")).trim().split(" ");
            return Double.parseDouble(max[0]) / Double.parseDouble(max[1]);
        }
        long quota = Long.parseLong(Files.readString(group.resolve("cpu.cfs_quota_us")).trim());
        long period = Long.parseLong(Files.readString(group.resolve("cpu.cfs_period_us")).trim());
        return (double) quota / period;
    }
}
