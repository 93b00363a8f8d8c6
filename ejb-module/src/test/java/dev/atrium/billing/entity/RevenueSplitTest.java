package dev.atrium.billing.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The 70/20/10 split: the parts always add up to the charge, each within rounding of its share. */
class RevenueSplitTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261124L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 20000);
    private static final BigDecimal ONE_UNIT = new BigDecimal("0.000001");

    @Test
    void whenAnyPriceIsSplitThenThePartsAddUpExactlyAndStayWithinRoundingOfTheirShares() {
        var random = new Random(SEED);
        for (int round = 0; round < ROUNDS; round++) {
            // prices from a millionth of a dollar to a million dollars, with up to 6 decimals
            long micros = switch (round % 3) {
                case 0 -> random.nextInt(100);
                case 1 -> random.nextInt(10_000_000);
                default -> Math.floorMod(random.nextLong(), 1_000_000_000_000L);
            };
            BigDecimal price = BigDecimal.valueOf(micros, 6);
            var split = RevenueSplit.of(price);
            String why = "seed " + SEED + " round " + round + " price " + price;

            assertThat(split.total()).as(why).isEqualByComparingTo(price);
            assertThat(split.developer().subtract(price.multiply(RevenueSplit.DEVELOPER)).abs()).as(why)
                    .isLessThanOrEqualTo(ONE_UNIT);
            assertThat(split.model().subtract(price.multiply(RevenueSplit.MODEL)).abs()).as(why)
                    .isLessThanOrEqualTo(ONE_UNIT);
            assertThat(split.platform().subtract(price.multiply(RevenueSplit.PLATFORM)).abs()).as(why)
                    .isLessThanOrEqualTo(ONE_UNIT.add(ONE_UNIT));
            assertThat(split.platform().signum()).as(why).isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    void whenTheEdgesAreSplitThenTheRemainderGoesToThePlatform() {
        assertThat(RevenueSplit.of(new BigDecimal("0.000001"))).isEqualTo(new RevenueSplit(
                new BigDecimal("0.000001"), new BigDecimal("0.000000"), new BigDecimal("0.000000")));
        assertThat(RevenueSplit.of(new BigDecimal("0.37"))).isEqualTo(new RevenueSplit(new BigDecimal("0.259000"),
                new BigDecimal("0.074000"), new BigDecimal("0.037000")));
        assertThat(RevenueSplit.of(BigDecimal.ZERO).total()).isZero();
        assertThatThrownBy(() -> RevenueSplit.of(new BigDecimal("-0.01")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
