package dev.atrium.platform.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BatchRecoveryTest {

    private static final Instant NOW = Instant.parse("2026-11-01T03:10:00Z");
    private static final Duration LEASE = Duration.ofSeconds(30);

    private static BatchJobs.Execution execution(String status, Instant created) {
        return new BatchJobs.Execution(7, 3, "monthly-payout", status, null, created, created, null, null, List.of());
    }

    @ParameterizedTest(name = "{0}, leased {1}, {2} s old → dead {3}")
    @CsvSource({
            "STARTED,   false, 31, true",
            "STARTING,  false, 30, true",
            "STOPPING,  false, 600, true",
            "STARTED,   true,  600, false",
            "STARTED,   false, 29, false",
            "STARTED,   false, -5, false",
            "COMPLETED, false, 600, false",
            "FAILED,    false, 600, false",
            "STOPPED,   false, 600, false",
            "ABANDONED, false, 600, false"
    })
    void whenAnExecutionIsJudgedThenOnlyAnUnleasedOneUnderWayAndOlderThanALeaseIsDead(String status, boolean leased,
                                                                                     long ageSeconds, boolean dead) {
        assertThat(BatchRecovery.dead(execution(status, NOW.minusSeconds(ageSeconds)), leased, NOW, LEASE))
                .isEqualTo(dead);
    }

    @ParameterizedTest
    @CsvSource({"STARTED", "STARTING"})
    void whenTheRuntimeGaveNoCreationTimeThenTheExecutionIsLeftAlone(String status) {
        assertThat(BatchRecovery.dead(execution(status, null), false, NOW, LEASE)).isFalse();
    }
}
