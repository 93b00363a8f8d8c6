package dev.atrium.identity.control;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;

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
        return store.get(key).map(Long::parseLong).orElse(now.toEpochMilli());
    }

    /** Refuses a locked account with 423 before its password is checked. */
    public void checkNotLocked(String email) {
        Instant now = clock.instant();
        String id = normalized(email);
        long failures = failures(id, now);
        if (failures >= FAILURES_TO_LOCK) {
            Instant last = lastFailure(id).orElse(now);
            throw locked(last.plus(LOCK), now);
        }
    }

    /** Records a failure; answers true when this failure locked the account. */
    public boolean recordFailure(String email) {
        Instant now = clock.instant();
        String id = normalized(email);
        failures(id, now);
        long count = store.increment("login-fail:" + id + ":count", LOCK);
        store.expire("login-fail:" + id + ":count", LOCK);
        store.set("login-fail:" + id + ":last", Long.toString(now.toEpochMilli()), LOCK);
        return count == FAILURES_TO_LOCK;
    }

    public void clearFailures(String email) {
        String id = normalized(email);
        store.delete("login-fail:" + id + ":count");
        store.delete("login-fail:" + id + ":last");
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

    /** The failure count, forgetting it once 30 minutes passed since the last failure by the application clock. */
    private long failures(String id, Instant now) {
        var last = lastFailure(id);
        if (last.isPresent() && !now.isBefore(last.get().plus(LOCK))) {
            clearFailures(id);
            return 0;
        }
        return store.get("login-fail:" + id + ":count").map(Long::parseLong).orElse(0L);
    }

    private java.util.Optional<Instant> lastFailure(String id) {
        return store.get("login-fail:" + id + ":last").map(v -> Instant.ofEpochMilli(Long.parseLong(v)));
    }

    private static String normalized(String email) {
        return email == null ? "" : email.trim().toLowerCase(Locale.ROOT);
    }
}
