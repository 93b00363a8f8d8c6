package dev.atrium.platform.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.kv.InMemoryKeyValueStore;
import dev.atrium.platform.time.MovableClock;

/** The fixed window of spec 03's invoke limit: 100 per 60 s window, keyed by window number, expiring with it. */
class RateLimiterTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261123L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 200);
    private static final Duration WINDOW = Duration.ofSeconds(60);

    private final MovableClock clock = new MovableClock(java.time.Clock.fixed(
            Instant.parse("2026-11-23T10:00:05Z"), ZoneOffset.UTC));
    private final RateLimiter limiter = limiter(clock);

    private static RateLimiter limiter(MovableClock clock) {
        var limiter = new RateLimiter();
        limiter.clock = clock;
        limiter.store = new InMemoryKeyValueStore(clock);
        return limiter;
    }

    @Test
    void whenTheHundredAndFirstCallComesInOneWindowThenItIsRefusedUntilTheNextWindow() {
        for (int i = 1; i <= 100; i++) {
            var d = limiter.hit("invoke|key:a", 100, WINDOW);
            assertThat(d.allowed()).as("call " + i).isTrue();
            assertThat(d.remaining()).isEqualTo(100 - i);
        }
        var refused = limiter.hit("invoke|key:a", 100, WINDOW);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.remaining()).isZero();
        assertThat(refused.resetEpochSeconds()).isEqualTo(Instant.parse("2026-11-23T10:01:00Z").getEpochSecond());
        assertThat(refused.retryAfterSeconds()).isEqualTo(55);

        clock.advance(Duration.ofSeconds(55));

        var next = limiter.hit("invoke|key:a", 100, WINDOW);
        assertThat(next.allowed()).isTrue();
        assertThat(next.remaining()).isEqualTo(99);
    }

    @Test
    void whenTwoKeysCallThenEachHasItsOwnCount() {
        for (int i = 0; i < 100; i++) {
            limiter.hit("invoke|key:a", 100, WINDOW);
        }
        assertThat(limiter.hit("invoke|key:a", 100, WINDOW).allowed()).isFalse();
        assertThat(limiter.hit("invoke|key:b", 100, WINDOW).allowed()).isTrue();
        assertThat(limiter.hit("invoke|user:1", 100, WINDOW).allowed()).isTrue();
    }

    /** Random call times: within any one window exactly the first 100 calls pass. */
    @Test
    void whenCallsComeAtRandomTimesThenEachWindowAllowsExactlyTheLimit() {
        var random = new Random(SEED);
        for (int round = 0; round < ROUNDS; round++) {
            var roundClock = new MovableClock(java.time.Clock.fixed(Instant.ofEpochSecond(1_700_000_000L
                    + random.nextInt(1_000_000)), ZoneOffset.UTC));
            var roundLimiter = limiter(roundClock);
            int limit = 1 + random.nextInt(120);
            var passed = new java.util.HashMap<Long, Integer>();
            for (int call = 0; call < 400; call++) {
                roundClock.advance(Duration.ofMillis(random.nextInt(1500)));
                long window = roundClock.instant().getEpochSecond() / 60;
                var d = roundLimiter.hit("k", limit, WINDOW);
                int before = passed.getOrDefault(window, 0);
                assertThat(d.allowed()).as("round " + round + " (seed " + SEED + ") call " + call)
                        .isEqualTo(before < limit);
                if (d.allowed()) {
                    passed.put(window, before + 1);
                }
                assertThat(d.resetEpochSeconds()).isEqualTo((window + 1) * 60);
            }
        }
    }
}
