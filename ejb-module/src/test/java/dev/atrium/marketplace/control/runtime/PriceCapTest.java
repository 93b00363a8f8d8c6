package dev.atrium.marketplace.control.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

class PriceCapTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261128L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 5000);

    @ParameterizedTest
    @CsvSource({"0, 0.000000", "2.5, 2.500000", "0.000001, 0.000001", "1000000, 1000000.000000",
            "0010, 10.000000"})
    void whenTheHeaderIsAPlainDecimalThenItIsTheCap(String header, String cap) {
        assertThat(PriceCap.read(header)).isEqualByComparingTo(cap);
        assertThat(PriceCap.read(header).scale()).isEqualTo(6);
    }

    @Test
    void whenTheHeaderIsAbsentThenTheAgentsOwnMaximumApplies() {
        assertThat(PriceCap.read(null)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "-1", "+1", "1e3", "1E3", "NaN", "Infinity", "1,000", "1 000", " 1", "1 ",
            "0x10", "1.", ".5", "1.0000001", "1000000.000001", "9999999", "99999999999999999999", "１", "1\u0000",
            "1;2", "2.5 USD", "$2.5", "1/2", "0.5.5", "٣"})
    void whenTheHeaderIsHostileOrMalformedThenItIsRefusedWith422NamingIt(String header) {
        assertThatThrownBy(() -> PriceCap.read(header)).isInstanceOfSatisfying(BusinessException.class, e -> {
            assertThat(e.problem()).isEqualTo(Problem.VALIDATION);
            assertThat(e.details()).contains(PriceCap.HEADER);
        });
    }

    /** Random strings over digits, separators and noise: read exactly when plain and in range, else 422. */
    @Test
    void whenRandomHeadersAreReadThenOnlyPlainDecimalsInRangePass() {
        var random = new Random(SEED);
        String alphabet = "0123456789.,-+eE x\u00a0١";
        for (int i = 0; i < ROUNDS; i++) {
            var text = new StringBuilder();
            int length = random.nextInt(14);
            for (int k = 0; k < length; k++) {
                text.append(random.nextInt(3) == 0 ? alphabet.charAt(random.nextInt(alphabet.length()))
                        : (char) ('0' + random.nextInt(10)));
            }
            String header = text.toString();
            boolean plain = header.matches("[0-9]{1,7}(\\.[0-9]{1,6})?")
                    && new BigDecimal(header).compareTo(new BigDecimal("1000000")) <= 0;
            String round = "round " + i + " (seed " + SEED + "): '" + header + "'";
            if (plain) {
                assertThat(PriceCap.read(header)).as(round).isEqualByComparingTo(new BigDecimal(header));
            } else {
                assertThatThrownBy(() -> PriceCap.read(header)).as(round).isInstanceOf(BusinessException.class);
            }
        }
    }
}
