package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * A grandchild that detaches (a new session, its parent gone) and outlives the agent is gone from the host once
 * the invocation has answered.
 */
class HostileAgentOrphanIT extends HostileAgentCase {

    @Test
    void whenAChildOutlivesTheAgentThenItIsGoneAfterTheRun() {
        String marker = HostileAgents.sleepMarker();
        var listing = HostileAgents.list(staff, HostileAgents.card("orphan", 20, false), HostileAgents.python("""
                def attack(conf):
                    os = mod("o", "s")
                    time = mod("ti", "me")
                    fork = getattr(os, "fo" + "rk")
                    child = fork()
                    if child == 0:
                        getattr(os, "set" + "sid")()
                        if fork() == 0:
                            for fd in (0, 1, 2):
                                os.close(fd)
                            getattr(os, "ex" + "ecv")("/bin/sleep", ["sleep", conf["sleep"]])
                        os._exit(0)
                    os.waitpid(child, 0)
                    time.sleep(0.5)
                    alive = []
                    for pid in os.listdir("/proc"):
                        if pid.isdigit():
                            try:
                                with open("/proc/" + pid + "/cmdline", "rb") as f:
                                    if conf["sleep"].encode() in f.read():
                                        alive.append(int(pid))
                            except Exception:
                                pass
                    return {"orphans": alive}
                """, Map.of("sleep", marker)));
        if (HostileAgents.refusedByScan(listing)) {
            HostileAgents.stillServing(caller, calm);
            return;
        }

        var report = HostileAgents.report(HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK));

        assertThat(report.get("orphans")).as("the orphan was running when the agent answered").isNotEmpty();
        assertThat(HostileAgents.awaitNoProcessesWith(marker, 5)).as("host processes left").isEmpty();
        HostileAgents.stillServing(caller, calm);
    }
}
