package dev.atrium.marketplace.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import dev.atrium.marketplace.control.checks.SafetyChecks;
import dev.atrium.platform.batch.BatchJobs;

/** When the advisory watch starts a re-scan: on a change of the data only, once, and not for a restart alone. */
class AgentRescanScheduleTest {

    private String data = "A";
    private String lastExecution;
    private boolean paused;
    private final List<String> starts = new ArrayList<>();
    private final AgentRescanSchedule schedule = new AgentRescanSchedule();

    AgentRescanScheduleTest() {
        schedule.checks = new SafetyChecks() {
            @Override
            public String advisoriesFingerprint() {
                if (data == null) {
                    throw new java.io.UncheckedIOException(new java.io.IOException("unreadable"));
                }
                return data;
            }
        };
        schedule.jobs = new BatchJobs() {
            @Override
            public boolean schedulePaused(String jobName) {
                return paused;
            }

            @Override
            public Optional<String> latestParameter(String jobName, String parameter) {
                return Optional.ofNullable(lastExecution);
            }

            @Override
            public OptionalLong startOnce(String claim, Duration keep, String jobName, String... parameters) {
                starts.add(claim + " " + String.join("=", parameters));
                lastExecution = parameters[1];
                return OptionalLong.of(starts.size());
            }
        };
    }

    @Test
    void whenNothingChangesThenNothingStartsNorAfterARestart() {
        schedule.deployed();
        schedule.watchAdvisories();
        schedule.watchAdvisories();

        assertThat(starts).isEmpty();
    }

    @Test
    void whenTheDataChangesThenOneExecutionStartsForTheNewData() {
        schedule.deployed();
        schedule.watchAdvisories();
        data = "B";

        schedule.watchAdvisories();
        schedule.watchAdvisories();

        assertThat(starts).containsExactly("agent-rescan:advisories:A>B advisories=B");
    }

    @Test
    void whenTheDataChangedWhileTheInstanceWasDownThenItsFirstLookStartsOne() {
        lastExecution = "A";
        data = "B";
        schedule.deployed();

        schedule.watchAdvisories();

        assertThat(starts).containsExactly("agent-rescan:advisories:A>B advisories=B");
    }

    @Test
    void whenTheLastExecutionScannedTheDataOfNowThenARestartStartsNothing() {
        lastExecution = "B";
        data = "B";
        schedule.deployed();

        schedule.watchAdvisories();

        assertThat(starts).isEmpty();
    }

    @Test
    void whenTheDataChangesBeforeTheFirstLookThenTheDeployedDataIsTheBaseline() {
        schedule.deployed();
        data = "B";

        schedule.watchAdvisories();

        assertThat(starts).containsExactly("agent-rescan:advisories:A>B advisories=B");
    }

    @Test
    void whenTheFileCannotBeReadThenNothingStartsAndTheNextLookCompares() {
        schedule.deployed();
        schedule.watchAdvisories();
        data = null;
        schedule.watchAdvisories();
        data = "A";
        schedule.watchAdvisories();

        assertThat(starts).isEmpty();
    }

    @Test
    void whenTheScheduleIsPausedThenAChangeStartsOnceItRunsAgain() {
        schedule.deployed();
        schedule.watchAdvisories();
        paused = true;
        data = "B";
        schedule.watchAdvisories();
        assertThat(starts).isEmpty();

        paused = false;
        schedule.watchAdvisories();

        assertThat(starts).containsExactly("agent-rescan:advisories:A>B advisories=B");
    }
}
