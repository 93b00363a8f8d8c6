package dev.atrium.identity.control.login;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.kv.KeyValueStore;

/**
 * The login limits of spec 01, decided by the application clock (entries in the store expire for cleanup only):
 * at most 5 attempts per client address in a 300 s window that starts at the first attempt, and 10 failures per
 * account (e-mail) lock it until 30 minutes after the last failure; a successful login clears the failures.
 * Failures are counted per e-mail whether or not an account exists, so the lock reveals nothing.
 */
@ApplicationScoped
public class LoginGuard {

    public static final int ATTEMPTS_PER_ADDRESS = 5;
    public static final Duration ADDRESS_WINDOW = Duration.ofSeconds(300);
    public static final int FAILURES_TO_LOCK = 10;
    public static final Duration LOCK = Duration.ofMinutes(30);

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    /** Counts an attempt from this address; the sixth in a window is refused with 429 and rate-limit headers. */
    public void countAttempt(String address) {
        Instant now = clock.instant();
        String startKey = "login-ip:" + address + ":start";
        long start = windowStart(startKey, now);
        if (!now.isBefore(Instant.ofEpochMilli(start).plus(ADDRESS_WINDOW))) {
            store.delete(startKey);
            start = windowStart(startKey, now);
        }
        long count = store.increment("login-ip:" + address + ":" + start, ADDRESS_WINDOW.plusSeconds(5));
        long reset = Instant.ofEpochMilli(start).plus(ADDRESS_WINDOW).getEpochSecond();
        if (count > ATTEMPTS_PER_ADDRESS) {
            long retry = Math.max(1, reset - now.getEpochSecond());
            throw new BusinessException(Problem.RATE_LIMITED, "Too many login attempts",
                    "At most " + ATTEMPTS_PER_ADDRESS + " login attempts per " + ADDRESS_WINDOW.toSeconds()
                            + " s from one address; retry in " + retry + " s",
                    Map.of("X-RateLimit-Limit", Integer.toString(ATTEMPTS_PER_ADDRESS),
                            "X-RateLimit-Remaining", "0",
                            "X-RateLimit-Reset", Long.toString(reset),
                            "Retry-After", Long.toString(retry)));
        }
    }

    private long windowStart(String key, Instant now) {
        String mine = Long.toString(now.toEpochMilli());
        if (store.setIfAbsent(key, mine, ADDRESS_WINDOW.plusSeconds(5))) {
            return now.toEpochMilli();
        }
        return store.get(key).map(v -> KeyValueStore.integer(key, Optional.of(v))).orElse(now.toEpochMilli());
    }

    /**
     * Refuses a locked account with 423 before its password is checked. Answers whether the account has failures on
     * record, which a successful login then clears ({@link #clearFailures}); with none, there is nothing to clear.
     */
    public boolean checkNotLocked(String email) {
        Instant now = clock.instant();
        var failures = failures(normalized(email), now);
        if (failures.count() >= FAILURES_TO_LOCK) {
            throw locked(failures.last().orElse(now).plus(LOCK), now);
        }
        return failures.onRecord();
    }

    /** Records a failure; answers true when this failure locked the account. */
    public boolean recordFailure(String email) {
        Instant now = clock.instant();
        String id = normalized(email);
        failures(id, now);
        long count = store.increment(countKey(id), LOCK);
        store.expire(countKey(id), LOCK);
        store.set(lastKey(id), Long.toString(now.toEpochMilli()), LOCK);
        return count == FAILURES_TO_LOCK;
    }

    public void clearFailures(String email) {
        String id = normalized(email);
        store.delete(countKey(id));
        store.delete(lastKey(id));
    }

    /** The answer to the failure that has just locked the account. */
    public BusinessException lockedNow() {
        Instant now = clock.instant();
        return locked(now.plus(LOCK), now);
    }

    public BusinessException locked(Instant until, Instant now) {
        long retry = Math.max(1, until.getEpochSecond() - now.getEpochSecond());
        return new BusinessException(Problem.ACCOUNT_LOCKED, "Account locked after too many failed logins",
                "Try again in " + retry + " s", Map.of("Retry-After", Long.toString(retry)));
    }

    /**
     * The failure count and the last failure, read in one round trip; forgotten (and cleared) once 30 minutes passed
     * since the last failure by the application clock.
     */
    private Failures failures(String id, Instant now) {
        var recorded = store.getAll(List.of(countKey(id), lastKey(id)));
        Optional<Instant> last = recorded.get(1)
                .map(v -> Instant.ofEpochMilli(KeyValueStore.integer(lastKey(id), Optional.of(v))));
        if (last.isPresent() && !now.isBefore(last.get().plus(LOCK))) {
            clearFailures(id);
            return new Failures(0, Optional.empty(), false);
        }
        return new Failures(KeyValueStore.integer(countKey(id), recorded.get(0)), last,
                recorded.get(0).isPresent() || last.isPresent());
    }

    /** An account's failed logins as the store holds them; {@code onRecord} when there is anything to clear. */
    private record Failures(long count, Optional<Instant> last, boolean onRecord) {
    }

    private static String countKey(String id) {
        return "login-fail:" + id + ":count";
    }

    private static String lastKey(String id) {
        return "login-fail:" + id + ":last";
    }

    private static String normalized(String email) {
        return email == null ? "" : email.trim().toLowerCase(Locale.ROOT);
    }
}
