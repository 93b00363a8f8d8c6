package dev.atrium.billing.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which processor takes top-ups: every choice against the embedded and an external database. */
class PaymentsSettingTest {

    @ParameterizedTest(name = "processor {0}, database {1} -> {2}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            -        | -                                            | embedded
            ''       | -                                            | embedded
            '  '     | ''                                           | embedded
            -        | jdbc:h2:./data/atrium;MODE=PostgreSQL        | embedded
            embedded | -                                            | embedded
            embedded | jdbc:postgresql://127.0.0.1:5432/atrium      | embedded
            webhook  | jdbc:postgresql://127.0.0.1:5432/atrium      | webhook
            stripe   | jdbc:postgresql://127.0.0.1:5432/atrium      | stripe
            stripe   | -                                            | stripe
            ' stripe'| -                                            | stripe
            """)
    void whenTheProcessorIsChosenOrTheDefaultsAreEmbeddedThenItIsTaken(String processor, String database,
                                                                        String taken) {
        assertThat(PaymentsSetting.decide(Optional.ofNullable(processor), Optional.ofNullable(database)))
                .isEqualTo(taken);
    }

    @ParameterizedTest(name = "processor {0}, database {1} refused")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            -          | jdbc:postgresql://127.0.0.1:5432/atrium
            ''         | jdbc:postgresql://db/atrium?sslmode=require
            paypal     | -
            Stripe     | jdbc:postgresql://127.0.0.1:5432/atrium
            free       | jdbc:postgresql://127.0.0.1:5432/atrium
            """)
    void whenTheDatabaseIsExternalWithoutAProcessorOrTheNameIsUnknownThenTheStartIsRefused(String processor,
                                                                                          String database) {
        assertThatThrownBy(() -> PaymentsSetting.decide(Optional.ofNullable(processor), Optional.ofNullable(database)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("ATRIUM_BILLING_PROCESSOR")
                .hasMessageContaining("embedded").hasMessageContaining("stripe").hasMessageContaining("webhook");
    }

    @ParameterizedTest
    @CsvSource({"embedded, embedded (development: top-ups are free)", "stripe, stripe", "webhook, webhook"})
    void whenHealthNamesTheProcessorThenEmbeddedSaysTopUpsAreFree(String processor, String named) {
        assertThat(PaymentsSetting.describe(processor)).isEqualTo(named);
    }
}
