package dev.atrium.platform.http;

import java.time.Clock;
import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.atrium.platform.kv.KeyValueStore;

/**
 * Fixed-window counters in the key-value store: the counter of a bucket is keyed by the window number and
 * expires with its window, so all instances share one count per caller.
 */
@ApplicationScoped
public class RateLimiter {

    /** The state of a bucket after one hit, as the rate-limit headers report it. */
    public record Decision(int limit, long remaining, long resetEpochSeconds, boolean allowed,
                           long retryAfterSeconds) {
    }

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    public Decision hit(String bucket, int limit, Duration window) {
        long seconds = Math.max(1, window.toSeconds());
        long now = clock.instant().getEpochSecond();
        long number = now / seconds;
        long reset = (number + 1) * seconds;
        long count = store.increment("rl:" + bucket + ":" + number, Duration.ofSeconds(seconds + 1));
        return new Decision(limit, Math.max(0, limit - count), reset, count <= limit, Math.max(1, reset - now));
    }
}
