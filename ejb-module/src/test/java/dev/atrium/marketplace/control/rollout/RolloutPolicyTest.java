package dev.atrium.marketplace.control.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.atrium.marketplace.control.rollout.RolloutPolicy.Move;
import dev.atrium.marketplace.entity.quality.QualityScore;

/** When a rollout advances, holds or rolls back, at the edges of its margins, minimum and step. */
class RolloutPolicyTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261124L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 5_000);
    private static final RolloutPolicy.Settings SETTINGS = RolloutPolicy.Settings.DEFAULTS;
    private static final Instant STEP = Instant.parse("2026-11-24T00:00:00Z");

    private static QualityScore figures(long calls, long successes) {
        return QualityScore.of(calls, successes, 1.0, 0.01, 0);
    }

    private static Move decide(long hours, QualityScore candidate, QualityScore current) {
        return RolloutPolicy.decide(SETTINGS, STEP, STEP.plus(Duration.ofHours(hours)), candidate, current).move();
    }

    @ParameterizedTest(name = "{0} h, candidate {1}/{2}, current {3}/{4} → {5}")
    @CsvSource({
            // within the step: hold unless a measured drop
            "1, 50, 50, 50, 50, HOLD",
            "23, 50, 50, 50, 50, HOLD",
            "1, 50, 40, 50, 50, ROLL_BACK",
            // a drop needs both versions measured
            "1, 49, 0, 50, 50, HOLD",
            "30, 49, 0, 50, 50, HOLD",
            "1, 50, 0, 49, 49, HOLD",
            // the success margin: 5 points
            "24, 100, 95, 100, 100, ADVANCE",
            "24, 100, 94, 100, 100, ROLL_BACK",
            "1, 100, 94, 100, 100, ROLL_BACK",
            // better than the current advances after the step
            "24, 50, 50, 50, 10, ADVANCE",
            "48, 60, 59, 80, 79, ADVANCE",
            // after the step, too few calls hold
            "24, 10, 10, 500, 500, HOLD",
            "24, 500, 500, 10, 10, HOLD"})
    void whenFiguresAndTimeAreGivenThenTheDocumentedMove(long hours, long candidateCalls, long candidateOk,
                                                         long currentCalls, long currentOk, Move expected) {
        assertThat(decide(hours, figures(candidateCalls, candidateOk), figures(currentCalls, currentOk)))
                .isEqualTo(expected);
    }

    @Test
    void whenOnlyTheQualityScoreFallsBeyondItsMarginThenRolledBackWithTheScoresInTheReason() {
        var candidate = QualityScore.of(100, 100, 50.0, 0.01, 0);
        var current = QualityScore.of(100, 100, 1.0, 0.01, 0);

        var decision = RolloutPolicy.decide(SETTINGS, STEP, STEP.plusSeconds(60), candidate, current);

        assertThat(decision.move()).isEqualTo(Move.ROLL_BACK);
        assertThat(decision.reason()).startsWith("Quality score 4.20").contains("5.00");
    }

    @Test
    void whenTheRolloutHoldsForTooFewCallsThenTheReasonSaysHowMany() {
        var decision = RolloutPolicy.decide(SETTINGS, STEP, STEP.plus(Duration.ofDays(2)), figures(3, 3),
                figures(70, 70));

        assertThat(decision.reason()).contains("3 on the candidate", "70 on the current", "50 needed");
    }

    @Test
    void whenFiguresAreRandomThenAMoveAlwaysFollowsTheRules() {
        var random = new Random(SEED);
        for (int round = 0; round < ROUNDS; round++) {
            long candidateCalls = random.nextInt(200);
            long currentCalls = random.nextInt(200);
            var candidate = QualityScore.of(candidateCalls, random.nextLong(candidateCalls + 1),
                    random.nextDouble() * 30, random.nextDouble() * 0.2, random.nextInt(3));
            var current = QualityScore.of(currentCalls, random.nextLong(currentCalls + 1),
                    random.nextDouble() * 30, random.nextDouble() * 0.2, random.nextInt(3));
            long hours = random.nextInt(60);
            Move move = decide(hours, candidate, current);
            boolean measured = candidateCalls >= 50 && currentCalls >= 50;
            boolean dropped = measured && (candidate.successRate() < current.successRate() - 0.05
                    || candidate.score() < current.score() - 0.25);
            Move expected = dropped ? Move.ROLL_BACK : hours >= 24 && measured ? Move.ADVANCE : Move.HOLD;
            assertThat(move).as("seed %d round %d", SEED, round).isEqualTo(expected);
        }
    }
}
