package dev.atrium.platform.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * UTC system time plus an offset, for tests only: unit tests move it, and the integration tests' server uses it
 * (its {@code /admin/clock}) to reach expiries, lockout ends and month boundaries without waiting.
 */
public final class MovableClock extends Clock {

    private final Clock base;
    private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

    /** System UTC time in whole microseconds: what both databases store, so a value read back equals the one written. */
    public MovableClock() {
        this(Clock.tick(Clock.systemUTC(), Duration.ofNanos(1000)));
    }

    public MovableClock(Clock base) {
        this.base = base;
    }

    public void advance(Duration by) {
        offset.accumulateAndGet(by, Duration::plus);
    }

    public void reset() {
        offset.set(Duration.ZERO);
    }

    public Duration offset() {
        return offset.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return base.instant().plus(offset.get());
    }

    @Override
    public long millis() {
        return instant().toEpochMilli();
    }
}
