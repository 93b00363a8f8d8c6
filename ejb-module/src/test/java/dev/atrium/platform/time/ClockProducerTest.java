package dev.atrium.platform.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

class ClockProducerTest {

    private final ClockProducer producer = new ClockProducer();

    @Test
    void whenTheProductClockIsReadThenItAnswersInWholeMicrosecondsInUtc() {
        var clock = producer.clock();

        long before = System.currentTimeMillis();
        long millis = clock.millis();
        var instant = clock.instant();

        assertThat(millis).isBetween(before, System.currentTimeMillis());
        assertThat(instant.getNano() % 1000).isZero();
        assertThat(instant.toEpochMilli()).isGreaterThanOrEqualTo(millis);
        assertThat(clock.getZone()).isEqualTo(ZoneOffset.UTC);
    }
}
