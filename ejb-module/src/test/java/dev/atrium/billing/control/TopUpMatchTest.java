package dev.atrium.billing.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.atrium.billing.entity.TopUp;

class TopUpMatchTest {

    @ParameterizedTest(name = "{0} {1} {2} {3} → {4}")
    @CsvSource(nullValues = "-", value = {
            "stripe,  pi_1, 25.50,  USD, -",
            "stripe,  -,    -,      -,   -",
            "stripe,  pi_1, 25.5,   USD, -",
            "webhook, pi_1, 25.50,  USD, the top-up was opened with stripe",
            "stripe,  pi_2, 25.50,  USD, another payment",
            "stripe,  pi_1, 25.49,  USD, amount 25.49",
            "stripe,  pi_1, 2550,   USD, amount 2550",
            "stripe,  pi_1, 25.50,  EUR, currency EUR"
    })
    void whenAnEventIsMatchedToItsTopUpThenAnyDifferenceRefusesIt(String processor, String external, String amount,
                                                                  String currency, String mismatch) {
        var topUp = new TopUp(7, new BigDecimal("25.50"), "stripe", Instant.EPOCH);
        topUp.sentTo("pi_1");
        var event = new PaymentProcessor.Event(PaymentProcessor.Outcome.SUCCEEDED, topUp.id(), external,
                amount == null ? null : new BigDecimal(amount), currency);
        assertThat(TopUps.mismatch(topUp, processor, event)).isEqualTo(mismatch);
    }
}
