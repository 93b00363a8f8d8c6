package dev.atrium.platform.kv;

import static org.assertj.core.api.Assertions.assertThat;

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
        new KeyValueStoreProducer().close(KeyValueStoreProducer.create(Optional.empty(), clock));
    }
}
