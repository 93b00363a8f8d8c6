package dev.atrium.marketplace.control.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.query.ListQuery;

class PriceRangeTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261129L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 5000);

    private static ListQuery query(Map<String, List<String>> filters) {
        return new ListQuery(1, 20, false, null, 20, null, filters, null, null, null, List.of());
    }

    @ParameterizedTest
    @CsvSource({"0, 0.000000", "2.25, 2.250000", "0.000001, 0.000001", "1000000, 1000000.000000", "007, 7.000000"})
    void whenABoundIsAPlainDecimalThenItIsTheAmount(String value, String amount) {
        assertThat(PriceRange.bound(PriceRange.MIN, List.of(value))).isEqualByComparingTo(amount);
        assertThat(PriceRange.bound(PriceRange.MIN, List.of(value)).scale()).isEqualTo(6);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "-1", "-0", "+1", "1e3", "1E-2", "NaN", "Infinity", "-Infinity", "0x10", "1.",
            ".5", "1.1234567", "1000000.000001", "10000000", "99999999999999999999", "１", "٣", "1\u0000", "1;2",
            "$2", "2 USD", "0.5.5", "1_000", "1\u00a0", "\u202e1"})
    void whenABoundIsHostileThenItIsRefusedWith422NamingIt(String value) {
        for (String name : List.of(PriceRange.MIN, PriceRange.MAX_PARAMETER)) {
            assertThatThrownBy(() -> PriceRange.bound(name, List.of(value)))
                    .isInstanceOfSatisfying(BusinessException.class, e -> {
                        assertThat(e.problem()).isEqualTo(Problem.VALIDATION);
                        assertThat(e.getMessage() + " " + e.details()).contains(name);
                    });
        }
    }

    @Test
    void whenABoundHasSeveralValuesOrTheMinimumIsAboveTheMaximumThen422() {
        assertThatThrownBy(() -> PriceRange.bound(PriceRange.MIN, List.of("1", "2")))
                .isInstanceOf(BusinessException.class);
        assertThatThrownBy(() -> PriceRange.check(query(Map.of(PriceRange.MIN, List.of("2"),
                PriceRange.MAX_PARAMETER, List.of("1.999999"))))).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.VALIDATION));
        PriceRange.check(query(Map.of(PriceRange.MIN, List.of("2"), PriceRange.MAX_PARAMETER, List.of("2.0"))));
        PriceRange.check(query(Map.of(PriceRange.MAX_PARAMETER, List.of("0"))));
        PriceRange.check(query(Map.of()));
    }

    @Test
    void whenBoundsAreRandomTextThenEachIsAnAmountOrA422NeverAnotherFailure() {
        var random = new Random(SEED);
        String alphabet = "0123456789.-+eE ,x_%'\"\\;\u0000\u00a0١";
        for (int i = 0; i < ROUNDS; i++) {
            var text = new StringBuilder();
            for (int j = 0, n = random.nextInt(14); j < n; j++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String value = text.toString();
            boolean valid = value.matches("[0-9]{1,7}(\\.[0-9]{1,6})?")
                    && new BigDecimal(value).compareTo(new BigDecimal("1000000")) <= 0;
            try {
                var amount = PriceRange.bound(PriceRange.MAX_PARAMETER, List.of(value));
                assertThat(valid).as("'%s' was read as %s", value, amount).isTrue();
                assertThat(amount).isEqualByComparingTo(value);
            } catch (BusinessException e) {
                assertThat(valid).as("'%s' was refused", value).isFalse();
                assertThat(e.problem()).isEqualTo(Problem.VALIDATION);
            }
        }
    }
}
