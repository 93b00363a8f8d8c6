package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * A fork bomb (every process forks again, up to 2^10 processes if nothing stops it) meets the process-count limit,
 * and nothing of it is left on the host afterwards.
 */
class HostileAgentForkBombIT extends HostileAgentCase {

    @Test
    void whenAnAgentForksWithoutEndThenTheProcessLimitHoldsAndNothingIsLeft() {
        String marker = HostileAgents.sleepMarker();
        var listing = HostileAgents.list(staff, HostileAgents.card("bomb", 15, false), HostileAgents.python("""
                def attack(conf):
                    os = mod("o", "s")
                    time = mod("ti", "me")
                    fork = getattr(os, "fo" + "rk")
                    run = getattr(os, "ex" + "ecv")
                    if fork() == 0:
                        for fd in (0, 1, 2):
                            os.close(fd)
                        run("/bin/sleep", ["sleep", conf["sleep"]])
                    if fork() == 0:
                        for fd in (0, 1, 2):
                            os.close(fd)
                        tries = 0
                        while tries < 10:
                            tries += 1
                            try:
                                fork()
                            except OSError:
                                time.sleep(0.05)
                        time.sleep(60)
                        os._exit(0)
                    time.sleep(3)
                    try:
                        pid = fork()
                        if pid == 0:
                            os._exit(0)
                        after = "forked"
                    except OSError as e:
                        after = "refused: " + str(e)
                    return {"fork_after_bomb": after}
                """, Map.of("sleep", marker)));

        if (!HostileAgents.refusedByScan(listing)) {
            var reply = HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK);
            if (reply.json().has("error")) {
                assertThat(HostileAgents.failure(reply)).isNotBlank();
            } else {
                assertThat(HostileAgents.report(reply).get("fork_after_bomb").asText()).startsWith("refused");
            }
            assertThat(HostileAgents.awaitNoProcessesWith(marker, 5)).isEmpty();
        }
        HostileAgents.stillServing(caller, calm);
    }
}
