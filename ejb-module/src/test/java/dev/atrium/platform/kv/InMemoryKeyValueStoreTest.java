package dev.atrium.platform.kv;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.time.MovableClock;

class InMemoryKeyValueStoreTest extends KeyValueStoreContract {

    /** A fixed base: only the test moves time, so a slow machine cannot pass a deadline between two lines. */
    private final MovableClock clock = new MovableClock(
            Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));
    private final InMemoryKeyValueStore store = new InMemoryKeyValueStore(clock);

    @Override
    protected KeyValueStore store() {
        return store;
    }

    @Override
    protected void advance(Duration duration) {
        clock.advance(duration);
    }

    @Override
    protected String expectedBackend() {
        return "in-process";
    }

    @Test
    void whenExpiredEntriesAreNeverReadAgainThenLaterWritesSweepThem() {
        int expiring = InMemoryKeyValueStore.SWEEP_MIN_WRITES;
        int lasting = 3 * InMemoryKeyValueStore.SWEEP_MIN_WRITES;
        for (int i = 0; i < expiring; i++) {
            store.set(key("expiring-" + i), "v", Duration.ofSeconds(1));
        }

        clock.advance(Duration.ofSeconds(2));
        for (int i = 0; i < lasting; i++) {
            store.set(key("lasting-" + i), "v", null);
        }

        assertThat(store.entryCount()).isEqualTo(lasting);
    }

    @Test
    void whenClockReachesTheDeadlineExactlyThenEntryIsExpired() {
        store.set(key("k"), "v", Duration.ofSeconds(1));

        clock.advance(Duration.ofMillis(999));
        assertThat(store.get(key("k"))).contains("v");
        assertThat(store.ttl(key("k"))).contains(Duration.ofMillis(1));

        clock.advance(Duration.ofMillis(1));
        assertThat(store.get(key("k"))).isEmpty();
    }
}
