package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Sandboxes made ahead of their call (the warm pool, on by default): a call takes a sandbox whose agent already
 * waits for its input, and the sandbox is removed after that one call. Played as an attacker would: each call leaves
 * a file in /tmp, a variable in its environment and a process in the background, and reports what it found of the
 * call before; it finds nothing. A takedown removes the agent's waiting sandboxes from the host, and an agent that
 * works before its input has its waiting sandbox closed and runs cold.
 */
class WarmSandboxIT extends HostileAgentCase {

    private static final Pattern HITS = Pattern.compile("(?m)^atrium_sandbox_warm_hits(?:\\{[^}]*\\})? ([0-9.eE+]+)");

    @Test
    void whenCallsFollowEachOtherThenEachRunsInASandboxOfItsOwnThatSeesNothingOfTheLast() {
        String process = HostileAgents.marker();
        String left = HostileAgents.sleepMarker();
        ObjectNode card = markedCard("warm", process);
        var listing = HostileAgents.list(staff, card, HostileAgents.python("""
                import random
                nonce = random.random()

                def attack(conf):
                    os = mod("o", "s")
                    env = getattr(os, "env" + "iron")
                    name = "/tmp/" + conf["name"]
                    found = {"file": os.path.exists(name), "env": env.get("ATRIUM_LEFT_BEHIND"), "processes": []}
                    for pid in os.listdir("/proc"):
                        if pid.isdigit():
                            try:
                                with open("/proc/" + pid + "/cmdline", "rb") as f:
                                    if conf["sleep"].encode() in f.read():
                                        found["processes"].append(int(pid))
                            except Exception:
                                pass
                    with open(name, "w") as f:
                        f.write("left")
                    env["ATRIUM_LEFT_BEHIND"] = "left"
                    fork = getattr(os, "fo" + "rk")
                    if fork() == 0:
                        getattr(os, "set" + "sid")()
                        for fd in (0, 1, 2):
                            os.close(fd)
                        getattr(os, "ex" + "ecv")("/bin/sleep", ["sleep", conf["sleep"]])
                    found["nonce"] = nonce
                    return found
                """, Map.of("name", HostileAgents.marker(), "sleep", left)));
        if (HostileAgents.refusedByScan(listing)) {
            HostileAgents.stillServing(caller, calm);
            return;
        }

        JsonNode first = HostileAgents.report(HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK));
        JsonNode second = HostileAgents.report(HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK));
        List<Long> waiting = awaitProcessesWith(process);
        assertThat(waiting).as("after its second call, a sandbox made ahead waits for the next; " + warmGauges())
                .isNotEmpty();
        double hitsBefore = warmHits();
        JsonNode third = HostileAgents.report(HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK));

        assertThat(warmHits()).as("the third call was served by a sandbox made ahead").isGreaterThan(hitsBefore);
        for (JsonNode run : List.of(first, second, third)) {
            assertThat(run.get("file").asBoolean()).as("a file in /tmp of the call before: " + run).isFalse();
            assertThat(run.get("env").isNull()).as("the environment of the call before: " + run).isTrue();
            assertThat(run.get("processes")).as("a process of the call before: " + run).isEmpty();
        }
        assertThat(third.get("nonce").asDouble()).as("another process, so none of the last one's memory")
                .isNotEqualTo(second.get("nonce").asDouble());
        assertThat(HostileAgents.awaitNoProcessesWith(left, 10)).as("the calls' background processes").isEmpty();
        HostileAgents.stillServing(caller, calm);
    }

    @Test
    void whenTheAgentIsTakenDownThenItsWaitingSandboxesAreRemovedFromTheHost() {
        String process = HostileAgents.marker();
        ObjectNode card = markedCard("warm-takedown", process);
        var listing = HostileAgents.list(staff, card, HostileAgents.python("""
                def attack(conf):
                    return {}
                """, Map.of()));
        assertThat(listing.refused()).as(String.valueOf(listing.refusal())).isFalse();
        HostileAgents.report(HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK));
        HostileAgents.report(HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK));
        assertThat(awaitProcessesWith(process)).as("a sandbox made ahead").isNotEmpty();

        var takenDown = staff.api().post("/v1/admin/agents/" + listing.id() + "/takedown",
                Map.of("reason", "description_seriously_wrong", "details", "Warm sandboxes must go with the agent"));

        assertThat(takenDown.status()).as(takenDown.toString()).isEqualTo(200);
        assertThat(HostileAgents.awaitNoProcessesWith(process, 10)).as("waiting sandboxes left").isEmpty();
        assertThat(caller.api().post("/v1/agents/" + listing.id() + "/invoke", HostileAgents.HELLO).status())
                .isNotEqualTo(200);
    }

    /**
     * The attacker's agent burns CPU from its start, before its input, where no call would pay for it: its sandbox
     * made ahead is closed once it passes its start's CPU, and its next calls run cold, each answered.
     */
    @Test
    void whenTheAgentWorksBeforeItsInputThenItsWaitingSandboxIsClosedAndItsCallsRunCold() {
        String process = HostileAgents.marker();
        ObjectNode card = markedCard("warm-spin", process);
        var listing = HostileAgents.list(staff, card, HostileAgents.python("""
                def spin():
                    while True:
                        pass

                mod("thre", "ading").Thread(target=spin, daemon=True).start()

                def attack(conf):
                    return {"answered": True}
                """, Map.of()));
        if (HostileAgents.refusedByScan(listing)) {
            HostileAgents.stillServing(caller, calm);
            return;
        }
        HostileAgents.report(HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK));
        HostileAgents.report(HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK));
        assertThat(awaitProcessesWith(process)).as("a sandbox made ahead, spinning").isNotEmpty();
        assertThat(HostileAgents.awaitNoProcessesWith(process, 15)).as("the spinning sandbox is closed").isEmpty();

        double hitsBefore = warmHits();
        for (int i = 0; i < 5; i++) {
            assertThat(HostileAgents.report(HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK))
                    .get("answered").asBoolean()).isTrue();
        }
        assertThat(warmHits()).as("no call was served warm").isEqualTo(hitsBefore);
        assertThat(HostileAgents.awaitNoProcessesWith(process, 10)).as("nothing made ahead again").isEmpty();
        HostileAgents.stillServing(caller, calm);
    }

    /** A card whose command line carries {@code marker}, which finds the agent's waiting processes on the host. */
    private static ObjectNode markedCard(String base, String marker) {
        ObjectNode card = HostileAgents.card(base, 20, false);
        ((ArrayNode) card.get("runtime").get("entrypoint")).add(marker);
        return card;
    }

    private static List<Long> awaitProcessesWith(String marker) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<Long> found = HostileAgents.hostProcessesWith(marker);
        while (found.isEmpty() && System.nanoTime() < deadline) {
            Accounts.sleep(100);
            found = HostileAgents.hostProcessesWith(marker);
        }
        return found;
    }

    /** The pool's gauges as /metrics shows them, for a failure's message. */
    private static String warmGauges() {
        var scrape = Api.anonymous().header("Accept", "text/plain").get("/metrics");
        return scrape.body().lines().filter(l -> l.startsWith("atrium_sandbox_warm")).toList().toString();
    }

    private static double warmHits() {
        var scrape = Api.anonymous().header("Accept", "text/plain").get("/metrics");
        assertThat(scrape.status()).as(scrape.toString()).isEqualTo(200);
        Matcher m = HITS.matcher(scrape.body());
        assertThat(m.find()).as("atrium_sandbox_warm_hits in /metrics").isTrue();
        return Double.parseDouble(m.group(1));
    }
}
