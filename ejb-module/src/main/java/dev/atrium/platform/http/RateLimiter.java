package dev.atrium.platform.http;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

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

    /** A hit and the values of {@code keys} read in the same round trip to the store. */
    public record HitAndValues(Decision decision, List<Optional<String>> values) {
    }

    public Decision hit(String bucket, int limit, Duration window) {
        return hitAndRead(bucket, limit, window, List.of()).decision();
    }

    /**
     * {@link #hit}, reading {@code keys} of the shared store in the same round trip: state the caller needs right
     * after the limit (read after the hit, whatever the decision).
     */
    public HitAndValues hitAndRead(String bucket, int limit, Duration window, List<String> keys) {
        long seconds = Math.max(1, window.toSeconds());
        long now = clock.instant().getEpochSecond();
        long number = now / seconds;
        long reset = (number + 1) * seconds;
        String key = "rl:" + bucket + ":" + number;
        Duration ttl = Duration.ofSeconds(seconds + 1);
        // a plain hit stays a plain increment: stores and tests that count round trips see what they always saw
        var answer = keys.isEmpty() ? new KeyValueStore.CountAndValues(store.increment(key, ttl), List.of())
                : store.incrementAndGetAll(key, ttl, keys);
        long count = answer.count();
        return new HitAndValues(new Decision(limit, Math.max(0, limit - count), reset, count <= limit,
                Math.max(1, reset - now)), answer.values());
    }
}
