package dev.atrium.platform.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** What needs no running Redis: reading the URL, and failing softly when nothing answers. */
class RedisKeyValueStoreUrlTest {

    @Test
    void whenRedisIsUnreachableThenPingAnswersFalse() {
        try (var store = new RedisKeyValueStore("redis://127.0.0.1:1/0")) {
            assertThat(store.ping()).isFalse();
        }
    }

    @Test
    void whenRedisIsUnreachableThenOperationsThrowKeyValueStoreException() {
        try (var store = new RedisKeyValueStore("redis://127.0.0.1:1/0")) {
            assertThatThrownBy(() -> store.get("k"))
                    .isInstanceOf(KeyValueStoreException.class)
                    .hasMessageContaining("redis://127.0.0.1:1/0")
                    .hasCauseInstanceOf(RuntimeException.class);
        }
    }

    @Test
    void whenUrlCarriesAPasswordThenEndpointHidesIt() {
        try (var store = new RedisKeyValueStore("redis://user:s%40cret@cache.example:6380/3")) {
            assertThat(store.endpoint()).isEqualTo("redis://cache.example:6380/3");
            assertThat(store).hasToString("RedisKeyValueStore[redis://cache.example:6380/3]");
        }
    }

    @Test
    void whenUrlIsTlsWithoutPortOrDatabaseThenDefaultsApply() {
        try (var store = new RedisKeyValueStore("rediss://:secret@cache.example")) {
            assertThat(store.endpoint()).isEqualTo("rediss://cache.example:6379/0");
            assertThat(store.backend()).isEqualTo("redis");
        }
    }

    @Test
    void whenSchemeIsNotRedisThenIllegalArgumentWithoutThePassword() {
        assertThatThrownBy(() -> new RedisKeyValueStore("http://user:topsecret@cache.example:6379/0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("topsecret");
        assertThatThrownBy(() -> new RedisKeyValueStore("redis://user:top secret@cache example/0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("top secret");
    }
}
