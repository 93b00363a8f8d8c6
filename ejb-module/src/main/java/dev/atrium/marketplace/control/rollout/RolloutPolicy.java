package dev.atrium.marketplace.control.rollout;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

import dev.atrium.marketplace.entity.quality.QualityScore;

/**
 * When a rollout moves. The candidate and the current version are measured over the same step (each on the callers
 * it served since the step began). A drop — the candidate's success rate below the current version's by more than
 * the success margin, or its quality score by more than the quality margin — rolls back at once, but only once both
 * versions have at least the minimum of calls, so that a handful of calls cannot decide. A full step without a drop,
 * with both versions measured, advances. Anything else holds: a step in progress, or a step over with too few calls
 * to judge (an administrator may promote by hand).
 */
public final class RolloutPolicy {

    /** The policy's settings; see docs/configuration.md. */
    public record Settings(Duration step, long minCalls, double successMargin, double qualityMargin) {

        public static final Settings DEFAULTS = new Settings(Duration.ofHours(24), 50, 0.05, 0.25);

        public Settings {
            if (step.isNegative() || step.isZero() || minCalls < 1 || successMargin < 0 || qualityMargin < 0) {
                throw new IllegalArgumentException("Invalid rollout settings: " + step + ", " + minCalls + ", "
                        + successMargin + ", " + qualityMargin);
            }
        }
    }

    public enum Move {
        ADVANCE, HOLD, ROLL_BACK;

        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A move and why, in words for the history. */
    public record Decision(Move move, String reason) {
    }

    private RolloutPolicy() {
    }

    public static Decision decide(Settings settings, Instant stepStartedAt, Instant now, QualityScore candidate,
                                  QualityScore current) {
        boolean measured = candidate.totalCalls() >= settings.minCalls() && current.totalCalls() >= settings.minCalls();
        if (measured) {
            if (candidate.successRate() < current.successRate() - settings.successMargin()) {
                return new Decision(Move.ROLL_BACK, String.format(Locale.ROOT,
                        "Success rate %.1f %% over %d calls, below the current version's %.1f %% over %d calls by "
                                + "more than %.1f points", 100 * candidate.successRate(), candidate.totalCalls(),
                        100 * current.successRate(), current.totalCalls(), 100 * settings.successMargin()));
            }
            if (candidate.score() < current.score() - settings.qualityMargin()) {
                return new Decision(Move.ROLL_BACK, String.format(Locale.ROOT,
                        "Quality score %.2f over %d calls, below the current version's %.2f over %d calls by more "
                                + "than %.2f", candidate.score(), candidate.totalCalls(), current.score(),
                        current.totalCalls(), settings.qualityMargin()));
            }
        }
        Duration elapsed = Duration.between(stepStartedAt, now);
        if (elapsed.compareTo(settings.step()) < 0) {
            return new Decision(Move.HOLD, "The step runs until " + stepStartedAt.plus(settings.step()));
        }
        if (!measured) {
            return new Decision(Move.HOLD, "Too few calls to judge: " + candidate.totalCalls() + " on the candidate, "
                    + current.totalCalls() + " on the current version, " + settings.minCalls() + " needed on each");
        }
        return new Decision(Move.ADVANCE, String.format(Locale.ROOT,
                "Quality held for %d h: success rate %.1f %% (current %.1f %%), quality score %.2f (current %.2f)",
                settings.step().toHours(), 100 * candidate.successRate(), 100 * current.successRate(),
                candidate.score(), current.score()));
    }
}
