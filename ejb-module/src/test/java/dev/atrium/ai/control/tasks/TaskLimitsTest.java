package dev.atrium.ai.control.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class TaskLimitsTest {

    private final TaskLimits limits = TaskLimits.ofSeconds(120, 180);

    @Test
    void whenBelowTheSoftLimitThenWithin() {
        assertThat(limits.stage(Duration.ZERO)).isEqualTo(TaskLimits.Stage.WITHIN);
        assertThat(limits.stage(Duration.ofMillis(119_999))).isEqualTo(TaskLimits.Stage.WITHIN);
    }

    @Test
    void whenTheSoftLimitIsReachedThenSoftExceededUntilTheHardLimit() {
        assertThat(limits.stage(Duration.ofSeconds(120))).isEqualTo(TaskLimits.Stage.SOFT_EXCEEDED);
        assertThat(limits.stage(Duration.ofMillis(179_999))).isEqualTo(TaskLimits.Stage.SOFT_EXCEEDED);
    }

    @Test
    void whenTheHardLimitIsReachedThenHardExceeded() {
        assertThat(limits.stage(Duration.ofSeconds(180))).isEqualTo(TaskLimits.Stage.HARD_EXCEEDED);
        assertThat(limits.stage(Duration.ofHours(1))).isEqualTo(TaskLimits.Stage.HARD_EXCEEDED);
    }

    @Test
    void whenWaitingThenTheNextLimitIsTheSoftOneAndThenTheHardOne() {
        assertThat(limits.untilNextLimit(Duration.ofSeconds(100))).isEqualTo(Duration.ofSeconds(20));
        assertThat(limits.untilNextLimit(Duration.ofSeconds(120))).isEqualTo(Duration.ofSeconds(60));
        assertThat(limits.untilNextLimit(Duration.ofSeconds(170))).isEqualTo(Duration.ofSeconds(10));
        assertThat(limits.untilNextLimit(Duration.ofSeconds(200))).isEqualTo(Duration.ZERO);
    }

    @Test
    void whenBothLimitsAreEqualThenTheHardOneDecides() {
        var same = TaskLimits.ofSeconds(5, 5);

        assertThat(same.stage(Duration.ofSeconds(5))).isEqualTo(TaskLimits.Stage.HARD_EXCEEDED);
    }

    @Test
    void whenLimitsAreNotPositiveOrHardIsShorterThenTheyAreRefused() {
        assertThatThrownBy(() -> TaskLimits.ofSeconds(0, 180)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TaskLimits.ofSeconds(120, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TaskLimits.ofSeconds(120, 60)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be shorter");
    }
}
