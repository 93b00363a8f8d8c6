package dev.atrium.marketplace.entity.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The spec's quality score at its edges: no calls, latency and cost at zero, the cap, incidents. */
class QualityScoreTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261124L);

    @ParameterizedTest(name = "{0} of {1} calls, {2} s, {3} USD, {4} incidents → {5}")
    @CsvSource({
            // calls, successes, latency, cost, incidents, score
            "100, 100, 1, 0.01, 0, 5.0",
            "100, 100, 0, 0, 0, 5.0",
            "100, 0, 0, 0, 0, 2.5",
            "100, 50, 20, 0.1, 0, 3.0",
            "100, 50, 20, 0.1, 1, 2.5",
            "100, 50, 20, 0.1, 2, 2.0",
            "100, 50, 20, 0.1, 9, 2.0",
            "10, 8, 2, 0.01, 0, 4.5",
            "1, 0, 1000, 1000, 5, 0.010025",
            "3, 3, 0.1, 0.001, 0, 5.0",
            "3, 3, 0.05, 0.0005, 0, 5.0"})
    void whenFiguresAreGivenThenTheSpecsFormula(long calls, long successes, double latency, double cost,
                                                int incidents, double score) {
        assertThat(QualityScore.of(calls, successes, latency, cost, incidents).score()).isCloseTo(score,
                within(1e-9));
    }

    @Test
    void whenThereAreNoCallsThenTheNeutralScoreWhateverTheRest() {
        var q = QualityScore.of(0, 0, 50, 3, 4);

        assertThat(q.score()).isEqualTo(QualityScore.NEUTRAL).isEqualTo(2.5);
        assertThat(q.totalCalls()).isZero();
    }

    @Test
    void whenFiguresAreImpossibleThenRefused() {
        assertThatThrownBy(() -> QualityScore.of(1, 2, 1, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> QualityScore.of(-1, 0, 1, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> QualityScore.of(1, 1, 1, 1, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whenFiguresAreRandomThenTheScoreStaysWithinZeroAndTheCapAndFallsWithIncidents() {
        var random = new Random(SEED);
        for (int round = 0; round < 10_000; round++) {
            long calls = 1 + random.nextInt(1000);
            long ok = random.nextLong(calls + 1);
            double latency = random.nextDouble() * 100;
            double cost = random.nextDouble();
            var q = QualityScore.of(calls, ok, latency, cost, 0);
            assertThat(q.score()).as("seed %d round %d", SEED, round).isBetween(0.0, QualityScore.CAP);
            assertThat(QualityScore.of(calls, ok, latency, cost, 1).score()).isLessThanOrEqualTo(q.score());
        }
    }
}
