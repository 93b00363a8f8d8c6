package dev.atrium.marketplace.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The spec's promotion unverified → community: 100+ calls, rating 4.0+ once reviewed, no incident. */
class PromotionRuleTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261123L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 4000);

    @ParameterizedTest(name = "{0} calls, {1} reviews at {2}, {3} incidents → {4}")
    @CsvSource({
            "0,     0, 0,   0, false",
            "99,    0, 0,   0, false",
            "100,   0, 0,   0, true",
            "101,   0, 0,   0, true",
            "100,   1, 4.0, 0, true",
            "100,   5, 3.99, 0, false",
            "100,   3, 5,   0, true",
            "100,   0, 0,   1, false",
            "5000,  9, 4.5, 1, false",
            "99,    9, 5,   0, false",
            "100,   2, 1,   0, false",
            "-1,    0, 0,   0, false",
            "9223372036854775807, 0, 0, 0, true"})
    void whenFiguresAreJudgedThenTheTableHolds(long calls, long reviews, double rating, long incidents,
                                               boolean earned) {
        assertThat(PromotionRule.earned(calls, reviews, rating, incidents)).isEqualTo(earned);
    }

    @Test
    void whenRandomFiguresAreJudgedThenEachConditionIsNecessaryAndTogetherSufficient() {
        var random = new Random(SEED);
        for (int round = 0; round < ROUNDS; round++) {
            long calls = random.nextInt(4) == 0 ? 100 + random.nextInt(3) - 1 : random.nextInt(400);
            long reviews = random.nextInt(3) == 0 ? 0 : random.nextInt(50);
            double rating = random.nextInt(4) == 0 ? 4.0 : 1 + random.nextDouble() * 4;
            long incidents = random.nextInt(3) == 0 ? random.nextInt(3) : 0;

            boolean earned = PromotionRule.earned(calls, reviews, rating, incidents);

            boolean expected = calls >= 100 && incidents == 0 && (reviews == 0 || rating >= 4.0);
            assertThat(earned).as("seed %d round %d: %d calls, %d reviews at %s, %d incidents", SEED, round, calls,
                    reviews, rating, incidents).isEqualTo(expected);
            if (earned) {
                assertThat(PromotionRule.earned(calls + random.nextInt(1000), reviews, rating, 0)).isTrue();
                assertThat(PromotionRule.earned(calls, reviews, rating, 1)).isFalse();
                assertThat(PromotionRule.earned(99, reviews, rating, 0)).isFalse();
            }
        }
    }
}
