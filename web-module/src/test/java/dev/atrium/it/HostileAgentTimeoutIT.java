package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** An agent that sleeps past its timeout is killed with its children, and the caller gets the timeout error. */
class HostileAgentTimeoutIT extends HostileAgentCase {

    private static final int TIMEOUT_SECONDS = 4;

    @Test
    void whenAnAgentSleepsPastItsTimeoutThenItIsKilledAndTheCallerIsTold() {
        String marker = HostileAgents.sleepMarker();
        var listing = HostileAgents.list(staff, HostileAgents.card("nap", TIMEOUT_SECONDS, false),
                HostileAgents.python("""
                        def attack(conf):
                            os = mod("o", "s")
                            time = mod("ti", "me")
                            if getattr(os, "fo" + "rk")() == 0:
                                getattr(os, "ex" + "ecv")("/bin/sleep", ["sleep", conf["sleep"]])
                            time.sleep(3600)
                            return {"slept": True}
                        """, Map.of("sleep", marker)));
        if (HostileAgents.refusedByScan(listing)) {
            HostileAgents.stillServing(caller, calm);
            return;
        }

        long started = System.nanoTime();
        var reply = HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK);
        long seconds = (System.nanoTime() - started) / 1_000_000_000L;

        assertThat(HostileAgents.failure(reply)).endsWith("timed out after " + TIMEOUT_SECONDS + " s");
        assertThat(seconds).as("answered soon after the timeout").isLessThan(TIMEOUT_SECONDS + 30);
        assertThat(HostileAgents.awaitNoProcessesWith(marker, 5)).isEmpty();
        HostileAgents.stillServing(caller, calm);
    }
}
