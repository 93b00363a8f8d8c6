package dev.atrium.platform.kv;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Shared short-lived state: sessions, token blacklist, CSRF tokens, counters for rate limits, lockouts and quotas,
 * idempotency results, stream caches, OAuth state, tickets. Every entry may expire; all operations are atomic.
 * Redis in production, an in-process map by default; both pass one contract test suite.
 * <p>
 * Keys and values are non-null text. A ttl that is {@code null}, zero or negative means "never expires"; a positive
 * ttl counts in milliseconds, rounded up to at least one. Every operation but {@link #ping()} throws
 * {@link KeyValueStoreException} when the backend cannot be reached.
 */
public interface KeyValueStore {

    Optional<String> get(String key);

    /**
     * The values of several keys in one round trip, in the order asked; an absent or expired key answers empty.
     * Each value is read atomically, not the set of them.
     */
    List<Optional<String>> getAll(List<String> keys);

    /** Sets the value; a {@code null} or non-positive ttl keeps the entry until deleted. */
    void set(String key, String value, Duration ttl);

    /** Sets the value only when the key is absent; {@code true} when this call created the entry. */
    boolean setIfAbsent(String key, String value, Duration ttl);

    /** {@code true} when an entry was removed. */
    boolean delete(String key);

    /** Reads and removes in one step, so a value can be consumed once only. */
    Optional<String> getAndDelete(String key);

    /**
     * Sets the value, as {@link #set}, and answers the one it replaced (empty when there was none), in one step: one
     * round trip where a read and a write would take two, and no write of another caller lost in between.
     */
    Optional<String> getAndSet(String key, String value, Duration ttl);

    /**
     * Adds one to a counter (absent counts as 0) and answers the new value. The ttl is applied only when this
     * call created the counter, so a window starts at the first increment. Throws {@link KeyValueStoreException}
     * when the value held is not an integer, and leaves it as it was. Exact within 2^53 (Redis counts in a script,
     * whose numbers are doubles): far beyond any counter here.
     */
    default long increment(String key, Duration ttlOnCreate) {
        return add(key, 1, ttlOnCreate);
    }

    /**
     * A counter's value, 0 when absent. Throws {@link KeyValueStoreException} when the value held is not an integer,
     * as {@link #increment} does for it: a limit whose counter cannot be read is not treated as unused.
     */
    default long count(String key) {
        return integer(key, get(key));
    }

    /**
     * An integer (a counter, a time in milliseconds) as {@link #get} or {@link #getAll} read it, 0 when absent;
     * throws {@link KeyValueStoreException} when the value held is not an integer, as {@link #count(String)} does.
     * Only the form Redis counts with is one: ASCII digits, an optional minus, no leading zero, plus sign or space.
     */
    static long integer(String key, Optional<String> value) {
        return value.isEmpty() ? 0 : integer(key, value.get());
    }

    private static long integer(String key, String value) {
        try {
            long parsed = Long.parseLong(value);
            if (Long.toString(parsed).equals(value)) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // answered below, as any other value that is not an integer
        }
        throw new KeyValueStoreException("value of " + key + " is not an integer");
    }

    /**
     * Adds {@code delta} to a counter (absent counts as 0) and answers the new value; like {@link #increment},
     * the ttl is applied only when this call created the counter.
     */
    long add(String key, long delta, Duration ttlOnCreate);

    /**
     * One occurrence of a signal that fires once per episode and counts what follows (security alerts). When
     * {@code episodeKey} is absent it is created with {@code episodeTtl} and the answer is 0: this occurrence begins
     * an episode. Otherwise one is added to {@code countKey} (its {@code keep} applied when this call creates it, as
     * {@link #increment}), {@code stampKey} is set to {@code stamp} with {@code keep}, and the answer is the
     * counter's new value. Redis does it in one round trip; throws {@link KeyValueStoreException} when the counter
     * holds no integer, as {@link #increment} does.
     */
    default long beginOrRepeat(String episodeKey, Duration episodeTtl, String countKey, String stampKey,
                               String stamp, Duration keep) {
        if (setIfAbsent(episodeKey, "1", episodeTtl)) {
            return 0;
        }
        long count = increment(countKey, keep);
        set(stampKey, stamp, keep);
        return count;
    }

    /**
     * {@link #increment} of {@code countKey} and {@link #getAndSet} of {@code swapKey} together (a counted event
     * that also replaces what was last seen of it, as a token's refresh does). Redis does both in one round trip;
     * throws {@link KeyValueStoreException} when the counter holds no integer, and then replaces nothing.
     */
    default CountAndSwap incrementAndSwap(String countKey, Duration ttlOnCreate, String swapKey, String value,
                                          Duration swapTtl) {
        long count = increment(countKey, ttlOnCreate);
        return new CountAndSwap(count, getAndSet(swapKey, value, swapTtl));
    }

    /** What {@link #incrementAndSwap} answers: the counter's new value and the value replaced, if any. */
    record CountAndSwap(long count, Optional<String> replaced) {
        public CountAndSwap {
            Objects.requireNonNull(replaced, "replaced");
        }
    }

    /**
     * {@link #increment} of {@code countKey} and {@link #getAll} of {@code keys} together: a counted hit and the state
     * read beside it (the invoke gateway's rate limit with the caller's tier version and free-tier counters). Redis
     * does both in one round trip; throws {@link KeyValueStoreException} when the counter holds no integer, and then
     * reads nothing. The values are read after the increment, each atomically, not the set of them.
     */
    default CountAndValues incrementAndGetAll(String countKey, Duration ttlOnCreate, List<String> keys) {
        keys.forEach(k -> Objects.requireNonNull(k, "key"));
        long count = increment(countKey, ttlOnCreate);
        return new CountAndValues(count, getAll(keys));
    }

    /** What {@link #incrementAndGetAll} answers: the counter's new value and the values, in the order asked. */
    record CountAndValues(long count, List<Optional<String>> values) {
        public CountAndValues {
            values = List.copyOf(values);
        }
    }

    /**
     * Sets a new time to live on an existing entry, counted from now; a {@code null} or non-positive ttl makes it
     * never expire. {@code false} when the key is absent.
     */
    boolean expire(String key, Duration ttl);

    /** The remaining time to live; empty when the key is absent or never expires. */
    Optional<Duration> ttl(String key);

    /** Whether the store answers now; used by the health check. */
    boolean ping();

    /** {@code redis} or {@code in-process}, as the health check names it. */
    String backend();
}
