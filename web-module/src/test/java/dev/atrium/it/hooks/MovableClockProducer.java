package dev.atrium.it.hooks;

import java.time.Clock;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.interceptor.Interceptor;

import dev.atrium.platform.time.MovableClock;

/** The application's clock on the test server: system time until {@link ClockResource} moves it. */
@Alternative
@Priority(Interceptor.Priority.APPLICATION)
@ApplicationScoped
public class MovableClockProducer {

    private final MovableClock clock = new MovableClock();

    @Produces
    @ApplicationScoped
    Clock clock() {
        return clock;
    }

    MovableClock movable() {
        return clock;
    }
}
