package dev.atrium.platform.time;

import java.time.Clock;
import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** The one clock of the application: every use of "now" goes through it (the integration tests replace it). */
@ApplicationScoped
public class ClockProducer {

    /** System UTC time in whole microseconds: what both databases store, so a value read back is the one written. */
    @Produces
    @ApplicationScoped
    Clock clock() {
        return Clock.tick(Clock.systemUTC(), Duration.ofNanos(1000));
    }
}
