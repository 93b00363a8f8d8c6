package dev.atrium.platform.time;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** The one clock of the application: every use of "now" goes through it (the integration tests replace it). */
@ApplicationScoped
public class ClockProducer {

    @Produces
    @ApplicationScoped
    Clock clock() {
        return new Microseconds();
    }

    /**
     * System UTC time in whole microseconds: what both databases store, so a value read back is the one written. Not
     * {@code Clock.tick(systemUTC(), 1 µs)}: on Java 17 its {@code millis()} divides by a tick of zero milliseconds.
     */
    static final class Microseconds extends Clock {

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.now().truncatedTo(ChronoUnit.MICROS);
        }

        @Override
        public long millis() {
            return System.currentTimeMillis();
        }
    }
}
