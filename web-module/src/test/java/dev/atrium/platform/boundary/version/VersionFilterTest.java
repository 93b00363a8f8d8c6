package dev.atrium.platform.boundary.version;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import org.junit.jupiter.api.Test;

class VersionFilterTest {

    @Test
    void whenTheSunsetIsFormattedThenItIsAnImfFixdateWithATwoDigitDay() {
        assertThat(VersionFilter.httpDate(Instant.parse("2099-01-01T00:00:00Z")))
                .isEqualTo("Thu, 01 Jan 2099 00:00:00 GMT");
        assertThat(VersionFilter.httpDate(Instant.parse("2026-11-23T18:05:09Z")))
                .isEqualTo("Mon, 23 Nov 2026 18:05:09 GMT");
    }
}
