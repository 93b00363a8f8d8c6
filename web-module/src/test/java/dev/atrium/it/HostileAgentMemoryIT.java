package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** An agent that allocates far past its memory limit is stopped; the gateway stays healthy. */
class HostileAgentMemoryIT extends HostileAgentCase {

    @Test
    void whenAnAgentAllocatesPastItsMemoryLimitThenTheRunIsStopped() {
        // touched pages (b"\x01" * n), not calloc'd zeros, so the memory is really resident
        var listing = HostileAgents.list(staff, HostileAgents.card("hog", 20, false), HostileAgents.python("""
                def attack(conf):
                    held = []
                    for i in range(conf["mb"] // 16):
                        held.append(b"\\x01" * (16 << 20))
                    return {"allocated_mb": len(held) * 16}
                """, Map.of("mb", 2048)));
        if (HostileAgents.refusedByScan(listing)) {
            HostileAgents.stillServing(caller, calm);
            return;
        }

        var reply = HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK);

        assertThat(HostileAgents.failure(reply)).isNotBlank();
        assertThat(reply.body()).doesNotContain("allocated_mb");
        String runId = reply.header("Atrium-Run-Id");
        if (runId != null) {
            var run = caller.api().get("/v1/runs/" + runId);
            assertThat(run.status()).as(run.toString()).isEqualTo(200);
            assertThat(run.json().path("status").asText()).isNotIn("succeeded", "success", "ok");
        }
        HostileAgents.stillServing(caller, calm);
    }
}
