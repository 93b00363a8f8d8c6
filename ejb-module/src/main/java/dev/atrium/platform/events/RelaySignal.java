package dev.atrium.platform.events;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * Wakes this instance's relay when a transaction that wrote events has committed, so that events usually leave
 * within milliseconds instead of at the next poll. Losing a signal costs only latency: the relay also polls.
 */
@ApplicationScoped
public class RelaySignal {

    private final Semaphore signals = new Semaphore(0);

    public void wake() {
        if (signals.availablePermits() == 0) {
            signals.release();
        }
    }

    /** Waits up to {@code millis} for a signal; answers whether one came. */
    boolean await(long millis) throws InterruptedException {
        boolean woken = signals.tryAcquire(millis, TimeUnit.MILLISECONDS);
        signals.drainPermits();
        return woken;
    }
}
