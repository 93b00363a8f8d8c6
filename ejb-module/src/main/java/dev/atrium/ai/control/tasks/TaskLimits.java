package dev.atrium.ai.control.tasks;

import java.time.Duration;
import java.util.Objects;

/**
 * The time limits of one task attempt. Past the soft limit the worker asks the model to stop (the stream is
 * cancelled and the attempt ends as a failure); past the hard limit it stops waiting for the model at all: the task
 * fails and the worker moves on, whatever the model call is doing.
 */
public record TaskLimits(Duration soft, Duration hard) {

    /** Where an attempt stands against its limits. */
    public enum Stage {
        WITHIN, SOFT_EXCEEDED, HARD_EXCEEDED
    }

    public TaskLimits {
        Objects.requireNonNull(soft, "soft");
        Objects.requireNonNull(hard, "hard");
        if (soft.isNegative() || soft.isZero() || hard.isNegative() || hard.isZero()) {
            throw new IllegalArgumentException("Task time limits must be positive");
        }
        if (hard.compareTo(soft) < 0) {
            throw new IllegalArgumentException("The hard time limit (" + hard.toSeconds()
                    + " s) must not be shorter than the soft one (" + soft.toSeconds() + " s)");
        }
    }

    public static TaskLimits ofSeconds(long soft, long hard) {
        return new TaskLimits(Duration.ofSeconds(soft), Duration.ofSeconds(hard));
    }

    public Stage stage(Duration elapsed) {
        if (elapsed.compareTo(hard) >= 0) {
            return Stage.HARD_EXCEEDED;
        }
        return elapsed.compareTo(soft) >= 0 ? Stage.SOFT_EXCEEDED : Stage.WITHIN;
    }

    /** How long after {@code elapsed} the next limit is reached; zero once past the hard one. */
    public Duration untilNextLimit(Duration elapsed) {
        Duration next = elapsed.compareTo(soft) < 0 ? soft : hard;
        Duration left = next.minus(elapsed);
        return left.isNegative() ? Duration.ZERO : left;
    }
}
