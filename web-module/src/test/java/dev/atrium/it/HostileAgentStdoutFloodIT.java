package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** 100 MB on stdout (or on stderr) is cut at its cap; the caller gets a short error, the server stays healthy. */
class HostileAgentStdoutFloodIT extends HostileAgentCase {

    @Test
    void whenAnAgentWrites100MegabytesToStdoutThenItIsStoppedWithAnError() {
        var listing = HostileAgents.list(staff, HostileAgents.card("flood", 30, false), HostileAgents.python("""
                def attack(conf):
                    block = b"A" * (1 << 20)
                    for i in range(conf["mb"]):
                        sys.stdout.buffer.write(block)
                    sys.stdout.buffer.flush()
                    return {"flooded_mb": conf["mb"]}
                """, Map.of("mb", 100)));
        if (HostileAgents.refusedByScan(listing)) {
            HostileAgents.stillServing(caller, calm);
            return;
        }

        var reply = HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK);

        assertThat(HostileAgents.failure(reply)).isNotBlank();
        assertThat(reply.body().length()).as("the caller never gets the flood").isLessThan(16 * 1024);
        assertThat(reply.body()).doesNotContain("AAAAAAAA");
        HostileAgents.stillServing(caller, calm);
    }

    @Test
    void whenAnAgentWrites100MegabytesToStderrThenItsLogIsCappedAndTheServerIsFine() {
        var listing = HostileAgents.list(staff, HostileAgents.card("shout", 30, false), HostileAgents.python("""
                def attack(conf):
                    block = b"B" * (1 << 20)
                    for i in range(conf["mb"]):
                        sys.stderr.buffer.write(block)
                    sys.stderr.buffer.flush()
                    return {"flooded_mb": conf["mb"]}
                """, Map.of("mb", 100)));
        if (HostileAgents.refusedByScan(listing)) {
            HostileAgents.stillServing(caller, calm);
            return;
        }

        var reply = HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.body().length()).isLessThan(16 * 1024);
        String runId = reply.header("Atrium-Run-Id");
        if (runId != null) {
            var run = caller.api().get("/v1/runs/" + runId);
            assertThat(run.status()).as(run.toString()).isEqualTo(200);
            assertThat(run.body().length()).as("the stored log is capped").isLessThan(1024 * 1024);
        }
        HostileAgents.stillServing(caller, calm);
    }
}
