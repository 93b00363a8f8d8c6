package dev.atrium.platform.kv;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The embedded store: one map in this JVM, so only for a single instance. Expiry is judged by the given clock,
 * which lets tests move time. Expired entries vanish on access and are swept from time to time by a writer, since
 * no background thread may be started inside the application server.
 */
public final class InMemoryKeyValueStore implements KeyValueStore {

    /** The fewest writes between two sweeps; above that, as many writes as entries survived the last sweep. */
    static final int SWEEP_MIN_WRITES = 1024;

    private static final long NEVER = Long.MAX_VALUE;

    private record Entry(String value, long expiresAt) {

        boolean expiredAt(long now) {
            return now >= expiresAt;
        }
    }

    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final Clock clock;
    private final AtomicLong writesSinceSweep = new AtomicLong();
    private final ReentrantLock sweepLock = new ReentrantLock();
    private volatile long sweepAfter = SWEEP_MIN_WRITES;

    public InMemoryKeyValueStore(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Optional<String> get(String key) {
        return Optional.ofNullable(live(key)).map(Entry::value);
    }

    @Override
    public List<Optional<String>> getAll(List<String> keys) {
        keys.forEach(k -> Objects.requireNonNull(k, "key"));
        return keys.stream().map(this::get).toList();
    }

    @Override
    public void set(String key, String value, Duration ttl) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        entries.put(key, new Entry(value, deadline(clock.millis(), ttl)));
        afterWrite();
    }

    @Override
    public boolean setIfAbsent(String key, String value, Duration ttl) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        var created = new boolean[1];
        entries.compute(key, (k, old) -> {
            long now = clock.millis();
            if (old != null && !old.expiredAt(now)) {
                return old;
            }
            created[0] = true;
            return new Entry(value, deadline(now, ttl));
        });
        afterWrite();
        return created[0];
    }

    @Override
    public boolean delete(String key) {
        var removed = entries.remove(Objects.requireNonNull(key, "key"));
        return removed != null && !removed.expiredAt(clock.millis());
    }

    @Override
    public Optional<String> getAndDelete(String key) {
        // remove() hands an entry to one caller only, which is what makes the value single-use
        var removed = entries.remove(Objects.requireNonNull(key, "key"));
        if (removed == null || removed.expiredAt(clock.millis())) {
            return Optional.empty();
        }
        return Optional.of(removed.value());
    }

    @Override
    public Optional<String> getAndSet(String key, String value, Duration ttl) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        long now = clock.millis();
        var replaced = entries.put(key, new Entry(value, deadline(now, ttl)));
        afterWrite();
        return replaced == null || replaced.expiredAt(now) ? Optional.empty() : Optional.of(replaced.value());
    }

    @Override
    public long add(String key, long delta, Duration ttlOnCreate) {
        Objects.requireNonNull(key, "key");
        var result = new long[1];
        entries.compute(key, (k, old) -> {
            long now = clock.millis();
            if (old == null || old.expiredAt(now)) {
                result[0] = delta;
                return new Entry(Long.toString(delta), deadline(now, ttlOnCreate));
            }
            result[0] = next(key, old.value(), delta);
            return new Entry(Long.toString(result[0]), old.expiresAt());
        });
        afterWrite();
        return result[0];
    }

    @Override
    public boolean expire(String key, Duration ttl) {
        Objects.requireNonNull(key, "key");
        var renewed = entries.computeIfPresent(key, (k, old) -> {
            long now = clock.millis();
            return old.expiredAt(now) ? null : new Entry(old.value(), deadline(now, ttl));
        });
        afterWrite();
        return renewed != null;
    }

    @Override
    public Optional<Duration> ttl(String key) {
        var entry = live(key);
        if (entry == null || entry.expiresAt() == NEVER) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofMillis(Math.max(0, entry.expiresAt() - clock.millis())));
    }

    @Override
    public boolean ping() {
        return true;
    }

    @Override
    public String backend() {
        return "in-process";
    }

    /** Entries held, expired or not; lets tests see that sweeping works. */
    int entryCount() {
        return entries.size();
    }

    private Entry live(String key) {
        var entry = entries.get(Objects.requireNonNull(key, "key"));
        if (entry != null && entry.expiredAt(clock.millis())) {
            entries.remove(key, entry);
            return null;
        }
        return entry;
    }

    private static long next(String key, String value, long delta) {
        try {
            return Math.addExact(KeyValueStore.integer(key, Optional.of(value)), delta);
        } catch (ArithmeticException e) {
            throw new KeyValueStoreException("value of " + key + " is not an integer counter or would overflow", e);
        }
    }

    private static long deadline(long now, Duration ttl) {
        long millis = Ttl.millis(ttl);
        if (millis == 0) {
            return NEVER;
        }
        long at = now + millis;
        return at < now ? NEVER : at;
    }

    /**
     * Sweeps after as many writes as entries were left by the previous sweep (at least {@link #SWEEP_MIN_WRITES}),
     * so the cost per write stays constant while keys that are never read again still leave memory.
     */
    private void afterWrite() {
        if (writesSinceSweep.incrementAndGet() < sweepAfter || !sweepLock.tryLock()) {
            return;
        }
        try {
            if (writesSinceSweep.get() < sweepAfter) {
                return;
            }
            writesSinceSweep.set(0);
            long now = clock.millis();
            // removal through the view is conditional on the entry seen, so a concurrent write is never lost
            entries.values().removeIf(entry -> entry.expiredAt(now));
            sweepAfter = Math.max(SWEEP_MIN_WRITES, entries.size());
        } finally {
            sweepLock.unlock();
        }
    }
}
