package dev.atrium.marketplace.control;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * The bounded pool of sandbox slots of this instance ({@code atrium.sandbox.slots}, default twice the cores): one
 * slot per running agent. A caller waits up to {@code atrium.sandbox.wait-seconds} (default 5) for a slot, then is
 * answered 503 with {@code Retry-After}. Slots are taken in arrival order.
 */
@ApplicationScoped
public class SandboxSlots {

    @Inject
    @ConfigProperty(name = "atrium.sandbox.slots", defaultValue = "0")
    int configuredSlots;

    @Inject
    @ConfigProperty(name = "atrium.sandbox.wait-seconds", defaultValue = "5")
    int waitSeconds;

    private Semaphore slots;
    private int size;
    private Duration wait;

    public SandboxSlots() {
    }

    /** A pool of {@code size} slots whose callers wait up to {@code wait} (for tests). */
    SandboxSlots(int size, Duration wait) {
        configure(size, wait);
    }

    @PostConstruct
    void init() {
        configure(configuredSlots > 0 ? configuredSlots : 2 * Runtime.getRuntime().availableProcessors(),
                Duration.ofSeconds(Math.max(0, waitSeconds)));
    }

    private void configure(int size, Duration wait) {
        this.size = Math.max(1, size);
        this.wait = wait.isNegative() ? Duration.ZERO : wait;
        this.slots = new Semaphore(this.size, true);
    }

    /** Runs {@code work} holding a slot, or 503 with {@code Retry-After} when none frees within the wait. */
    public <T> T run(Supplier<T> work) {
        boolean acquired;
        try {
            acquired = slots.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw busy();
        }
        if (!acquired) {
            throw busy();
        }
        try {
            return work.get();
        } finally {
            slots.release();
        }
    }

    private BusinessException busy() {
        long retry = Math.max(1, wait.toSeconds());
        return new BusinessException(Problem.UNAVAILABLE, "All sandbox slots are busy",
                "Every one of this instance's " + size + " sandbox slots stayed busy for " + wait.toSeconds()
                        + " s; retry in " + retry + " s", Map.of("Retry-After", Long.toString(retry)));
    }

    public int size() {
        return size;
    }

    public int free() {
        return slots.availablePermits();
    }
}
