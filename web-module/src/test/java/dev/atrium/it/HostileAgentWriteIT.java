package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * An agent that declares filesystem access may write its scratch directory and its private /tmp, nothing else; and
 * nothing it wrote shows up on the host.
 */
class HostileAgentWriteIT extends HostileAgentCase {

    @Test
    void whenAnAgentWritesOutsideItsScratchThenEveryWriteFailsAndTheHostIsUntouched() {
        String name = HostileAgents.marker();
        Path data = AtriumServer.get().dataDir().toAbsolutePath();
        List<String> outside = List.of(".", "/", "/usr", "/usr/bin", "/bin", "/etc", "/lib", "/root",
                "/home", "/work", "/var/tmp", data.toString(), data.getParent().toString(),
                Path.of("").toAbsolutePath().toString());
        var listing = HostileAgents.list(staff, HostileAgents.card("scribble", 20, true), HostileAgents.python("""
                def attack(conf):
                    os = mod("o", "s")
                    env = getattr(os, "env" + "iron")
                    out = {}
                    scratch = env.get("SCRATCH")
                    for d in conf["outside"] + ["/tmp"] + ([scratch] if scratch else []):
                        try:
                            with open(os.path.join(d, conf["name"]), "w") as f:
                                f.write("x")
                            out[d] = "written"
                        except Exception as e:
                            out[d] = "error: " + type(e).__name__
                    try:
                        with open("main.py", "a") as f:
                            f.write("# changed")
                        out["main.py"] = "written"
                    except Exception as e:
                        out["main.py"] = "error: " + type(e).__name__
                    out["scratch"] = scratch
                    return out
                """, Map.of("outside", outside, "name", name)));
        if (HostileAgents.refusedByScan(listing)) {
            HostileAgents.stillServing(caller, calm);
            return;
        }

        var report = HostileAgents.report(HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK));

        for (String d : outside) {
            assertThat(report.get(d).asText()).as(d + " in " + report).startsWith("error");
            assertThat(Path.of(d).isAbsolute() ? Files.exists(Path.of(d, name)) : false).as(d).isFalse();
        }
        assertThat(report.get("main.py").asText()).startsWith("error");
        assertThat(report.get("/tmp").asText()).as("the private /tmp").isEqualTo("written");
        assertThat(Files.exists(Path.of("/tmp", name))).as("the agent's /tmp is not the host's").isFalse();
        String scratch = report.path("scratch").asText(null);
        assertThat(scratch).as("$SCRATCH, since the card declares filesystem access").isNotBlank();
        assertThat(report.get(scratch).asText()).isEqualTo("written");
        HostileAgents.stillServing(caller, calm);
    }

    @Test
    void whenTheAgentRunsAgainThenItsScratchFromBeforeIsGone() {
        String name = HostileAgents.marker();
        var listing = HostileAgents.list(staff, HostileAgents.card("remember", 20, true), HostileAgents.python("""
                def attack(conf):
                    os = mod("o", "s")
                    scratch = getattr(os, "env" + "iron").get("SCRATCH") or "/tmp"
                    seen = {d: os.path.exists(os.path.join(d, conf["name"])) for d in [scratch, "/tmp"]}
                    for d in [scratch, "/tmp"]:
                        with open(os.path.join(d, conf["name"]), "w") as f:
                            f.write("x")
                    return {"seen_before": any(seen.values())}
                """, Map.of("name", name)));
        if (HostileAgents.refusedByScan(listing)) {
            HostileAgents.stillServing(caller, calm);
            return;
        }

        var first = HostileAgents.report(HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK));
        var second = HostileAgents.report(HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK));

        assertThat(first.get("seen_before").asBoolean()).isFalse();
        assertThat(second.get("seen_before").asBoolean()).as("a run's files outlive it").isFalse();
        HostileAgents.stillServing(caller, calm);
    }
}
