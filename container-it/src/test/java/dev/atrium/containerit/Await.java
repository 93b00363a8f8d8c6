package dev.atrium.containerit;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** A bounded wait for something the container does on its own threads (a timer, a delivery, a job). */
public final class Await {

    private Await() {
    }

    /** Returns once {@code condition} holds; fails with {@code what} when {@code limit} passes first. */
    public static void until(String what, Duration limit, BooleanSupplier condition) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("Not within " + limit + ": " + what);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("Interrupted while waiting: " + what, e);
            }
        }
    }
}
