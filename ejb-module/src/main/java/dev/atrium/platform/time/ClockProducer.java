package dev.atrium.platform.time;

import java.time.Clock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** The one clock of the application: every use of "now" goes through it. */
@ApplicationScoped
public class ClockProducer {

    private final MovableClock clock = new MovableClock();

    @Produces
    @ApplicationScoped
    Clock clock() {
        return clock;
    }

    public MovableClock movable() {
        return clock;
    }
}
