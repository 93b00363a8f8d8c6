package dev.atrium.marketplace.control.trust;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.atrium.marketplace.control.trust.PromotionRule.Figures;

/**
 * The promotion unverified → community earned from strangers: 100+ successful calls by 10+ distinct verified callers
 * other than the author, 3+ reviews averaging 4.0+, no incident.
 */
class PromotionRuleTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261123L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 4000);

    private static final PromotionRule RULE = PromotionRule.DEFAULT;

    @ParameterizedTest(name = "{0} calls by {1} callers, {2} reviews at {3}, {4} incidents → {5}")
    @CsvSource({
            "0,     0,  0, 0,    0, false",
            "100,   10, 3, 4.0,  0, true",
            "101,   50, 9, 4.8,  0, true",
            "99,    10, 3, 5,    0, false",
            "100,   9,  3, 5,    0, false",
            "100,   1,  3, 5,    0, false",
            "100,   10, 0, 0,    0, false",
            "100000, 500, 0, 0,  0, false",
            "100,   10, 2, 5,    0, false",
            "100,   10, 3, 3.99, 0, false",
            "100,   10, 3, 5,    1, false",
            "5000,  90, 9, 4.5,  1, false",
            "-1,    10, 3, 5,    0, false",
            "100,   -1, 3, 5,    0, false",
            "9223372036854775807, 9223372036854775807, 3, 4, 0, true"})
    void whenFiguresAreJudgedThenTheTableHolds(long calls, long callers, long reviews, double rating,
                                               long incidents, boolean earned) {
        assertThat(RULE.earned(new Figures(calls, callers, reviews, rating, incidents))).isEqualTo(earned);
    }

    @ParameterizedTest(name = "all calls {0}, {1} reviews at {2} → worth counting {3}")
    @CsvSource({
            "99,  3, 5,    false",
            "100, 2, 5,    false",
            "100, 3, 3.9,  false",
            "100, 0, 0,    false",
            "100, 3, 4,    true",
            "900, 7, 4.2,  true"})
    void whenOnlyTheAgentsRowIsKnownThenCountingIsSkippedWhereNoPromotionIsPossible(long allCalls, long reviews,
                                                                                   double rating, boolean possible) {
        assertThat(RULE.possible(allCalls, reviews, rating)).isEqualTo(possible);
    }

    @Test
    void whenConfiguredLowerThenTheConfiguredFiguresHoldAndZeroMeansOne() {
        var lowered = new PromotionRule(5, 2, 1);
        assertThat(lowered.earned(new Figures(5, 2, 1, 4, 0))).isTrue();
        assertThat(lowered.earned(new Figures(5, 1, 1, 4, 0))).isFalse();
        var nothing = new PromotionRule(0, 0, 0);
        assertThat(nothing.earned(new Figures(0, 0, 0, 0, 0))).isFalse();
        assertThat(nothing.earned(new Figures(1, 1, 1, 4, 0))).isTrue();
    }

    @Test
    void whenPromotedThenTheHistoryNamesTheFigures() {
        assertThat(PromotionRule.because(new Figures(120, 12, 4, 4.25, 0))).isEqualTo(
                "unverified → community: 120 successful calls by 12 distinct verified callers other than the "
                        + "author, 4 reviews averaging 4.25, no security incident");
    }

    @Test
    void whenRandomFiguresAreJudgedThenEachConditionIsNecessaryAndTogetherSufficient() {
        var random = new Random(SEED);
        for (int round = 0; round < ROUNDS; round++) {
            long calls = random.nextInt(4) == 0 ? 100 + random.nextInt(3) - 1 : random.nextInt(400);
            long callers = random.nextInt(4) == 0 ? 10 + random.nextInt(3) - 1 : random.nextInt(40);
            long reviews = random.nextInt(3) == 0 ? random.nextInt(4) : random.nextInt(50);
            double rating = reviews == 0 ? 0 : random.nextInt(4) == 0 ? 4.0 : 1 + random.nextDouble() * 4;
            long incidents = random.nextInt(3) == 0 ? random.nextInt(3) : 0;

            boolean earned = RULE.earned(new Figures(calls, callers, reviews, rating, incidents));

            boolean expected = calls >= 100 && callers >= 10 && reviews >= 3 && rating >= 4.0 && incidents == 0;
            assertThat(earned).as("seed %d round %d: %d calls by %d callers, %d reviews at %s, %d incidents", SEED,
                    round, calls, callers, reviews, rating, incidents).isEqualTo(expected);
            if (earned) {
                assertThat(RULE.possible(calls + random.nextInt(1000), reviews, rating)).isTrue();
                assertThat(RULE.earned(new Figures(calls, callers, reviews, rating, 1))).isFalse();
                assertThat(RULE.earned(new Figures(99, callers, reviews, rating, 0))).isFalse();
                assertThat(RULE.earned(new Figures(calls, 9, reviews, rating, 0))).isFalse();
                assertThat(RULE.earned(new Figures(calls, callers, 2, rating, 0))).isFalse();
            }
        }
    }
}
