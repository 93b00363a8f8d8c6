package dev.atrium.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RetryAfterTest {

    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "0|PT0S", "7|PT7S", "' 12 '|PT12S", "120|PT2M",
            "Wed, 25 Nov 2026 10:00:30 GMT|PT30S",
            "Wed, 25 Nov 2026 09:00:00 GMT|PT0S",
            "99999999999999999999999|PT2562047788015215H30M7S",
            "NULL|NULL", "''|NULL", "-5|NULL", "1.5|NULL", "5s|NULL", "0x10|NULL", "+5|NULL",
            "tomorrow|NULL", "Wed, 32 Nov 2026 10:00:30 GMT|NULL", "'7\u00008'|NULL", "٣|NULL"})
    void whenAHeaderIsReadThenSecondsOrADateOrNothing(String header, String expected) {
        var wait = RetryAfter.parse(header, NOW);

        assertThat(wait.map(Duration::toString).orElse(null)).isEqualTo(expected);
    }

    @Test
    void whenTheHeaderIsLongerThanAnyRealOneThenIgnored() {
        assertThat(RetryAfter.parse("1".repeat(65), NOW)).isEmpty();
    }

    @Test
    void whenRandomTextIsReadThenItNeverThrowsAndNeverAnswersANegativeWait() {
        var random = new Random(20261125);
        String alphabet = "0123456789 ,:-+.GMTWedNovSunJan\t\r\n\u0000é٣";
        for (int i = 0; i < 20_000; i++) {
            var text = new StringBuilder();
            for (int n = random.nextInt(40); n > 0; n--) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            var wait = RetryAfter.parse(text.toString(), NOW);
            wait.ifPresent(w -> assertThat(w.isNegative()).as(text.toString()).isFalse());
        }
    }
}
