package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.atrium.it.probe.ItTimerProbe;

/**
 * Payara Micro runs without its data grid ({@code --nohazelcast}: docs/benchmarks.md, "Start-up: without the data
 * grid"), which Atrium never uses and which cost every start a second's wait for cluster members: the grid does not
 * start, and the EJB timers, which then keep only non-persistent ones (all of Atrium's), still fire.
 */
@ExtendWith(AtriumServer.class)
class DataGridOffIT {

    private static List<String> log() throws Exception {
        return Files.readAllLines(AtriumServer.get().serverLog(), StandardCharsets.ISO_8859_1);
    }

    @Test
    void whenTheServerHasStartedThenPayarasDataGridHasNot() throws Exception {
        // what Payara logs as its grid comes up (with --nocluster too, which only keeps it from finding others)
        assertThat(log()).isNotEmpty().noneMatch(line -> line.contains("Hazelcast Instance Bound to JNDI")
                || line.contains("Data Grid Status"));
    }

    @Test
    void whenTheServerRunsWithoutItsDataGridThenCalendarAndIntervalTimersFire() throws Exception {
        List<String> expected = List.of(ItTimerProbe.LOGGED + "schedule 2", ItTimerProbe.LOGGED + "interval 2");
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String fired = "";
        while (System.nanoTime() < deadline) {
            fired = String.join("\n", log().stream().filter(line -> line.contains(ItTimerProbe.LOGGED)).toList());
            if (fired.contains(expected.get(0)) && fired.contains(expected.get(1))) {
                break;
            }
            Thread.sleep(250);
        }
        assertThat(fired).as("the probe's rounds in the server's log").contains(expected);
    }
}
