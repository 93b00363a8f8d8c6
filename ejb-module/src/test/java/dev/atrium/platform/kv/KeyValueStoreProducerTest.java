package dev.atrium.platform.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.time.MovableClock;

class KeyValueStoreProducerTest {

    private final MovableClock clock = new MovableClock();

    @Test
    void whenRedisUrlIsMissingThenStoreIsInProcess() {
        assertThat(KeyValueStoreProducer.create(Optional.empty(), clock)).isInstanceOf(InMemoryKeyValueStore.class);
    }

    @Test
    void whenRedisUrlIsBlankThenStoreIsInProcess() {
        assertThat(KeyValueStoreProducer.create(Optional.of("  "), clock).backend()).isEqualTo("in-process");
    }

    @Test
    void whenRedisUrlIsSetThenStoreIsRedis() {
        var store = KeyValueStoreProducer.create(Optional.of(" redis://127.0.0.1:1/0 "), clock);
        try {
            assertThat(store).isInstanceOf(RedisKeyValueStore.class);
            assertThat(store.backend()).isEqualTo("redis");
        } finally {
            new KeyValueStoreProducer().close(store);
        }
    }

    @Test
    void whenInProcessStoreIsDisposedThenNothingFails() {
        var store = KeyValueStoreProducer.create(Optional.empty(), clock);
        store.set("k", "v", Duration.ofMinutes(1));
        assertThatNoException().isThrownBy(() -> new KeyValueStoreProducer().close(store));
        // nothing to release in process: what other beans still hold keeps working until the JVM ends
        assertThat(store.get("k")).contains("v");
    }
}
