package dev.atrium.platform.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import redis.clients.jedis.Jedis;

/**
 * The contract against a real Redis, database 15 of the local server unless {@code atrium.test.redis.url} says
 * otherwise. Skipped when Redis is not there, failed instead when {@code ATRIUM_TEST_REQUIRE_SERVICES=true}.
 */
class RedisKeyValueStoreTest extends KeyValueStoreContract {

    static final String URL = System.getProperty("atrium.test.redis.url", "redis://127.0.0.1:6379/15");

    private static final List<RedisKeyValueStore.Script> SCRIPTS = List.of(RedisKeyValueStore.INCREMENT,
            RedisKeyValueStore.BEGIN_OR_REPEAT, RedisKeyValueStore.INCREMENT_AND_SWAP, RedisKeyValueStore.PERSIST);

    private static RedisKeyValueStore store;
    private static boolean reachable;

    @BeforeAll
    static void connect() {
        store = new RedisKeyValueStore(URL);
        reachable = store.ping();
    }

    // per test rather than once per class, so that a skip shows in the counts of every test run
    @BeforeEach
    void requireRedis() {
        if (reachable) {
            return;
        }
        var message = "Redis does not answer at " + store.endpoint()
                + " (set -Datrium.test.redis.url=redis://host:port/db to point elsewhere)";
        if ("true".equals(System.getenv("ATRIUM_TEST_REQUIRE_SERVICES"))) {
            fail(message + "; ATRIUM_TEST_REQUIRE_SERVICES=true forbids skipping");
        }
        abort(message + "; skipping");
    }

    @AfterAll
    static void disconnect() {
        if (store != null) {
            store.close();
        }
    }

    @Override
    protected KeyValueStore store() {
        return store;
    }

    @Override
    protected void advance(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected String expectedBackend() {
        return "redis";
    }

    @Test
    void whenMoreThreadsThanPooledConnectionsThenAllOperationsComplete() throws Exception {
        var key = key("busy");
        int threads = 2 * RedisKeyValueStore.MAX_CONNECTIONS;

        List<Long> results = concurrently(threads, i -> store.increment(key, Duration.ofMinutes(1)));

        assertThat(results).doesNotHaveDuplicates().hasSize(threads);
        assertThat(store.get(key)).contains(Integer.toString(threads));
    }

    @Test
    void whenAScriptIsLoadedThenRedisNamesItByTheSameSha1() {
        try (var redis = new Jedis(URI.create(URL))) {
            for (var script : SCRIPTS) {
                assertThat(redis.scriptLoad(script.body())).isEqualTo(script.sha1());
            }
        }
    }

    @Test
    void whenRedisHasForgottenItsScriptsThenEveryScriptedOperationStillAnswersAndTeachesThemAgain() {
        var counter = key("count");
        var place = key("place");
        try (var redis = new Jedis(URI.create(URL))) {
            redis.scriptFlush();
            assertThat(store.increment(counter, Duration.ofMinutes(1))).isEqualTo(1);
            redis.scriptFlush();
            assertThat(store.incrementAndSwap(counter, Duration.ofMinutes(1), place, "a", Duration.ofMinutes(1)))
                    .isEqualTo(new KeyValueStore.CountAndSwap(2, java.util.Optional.empty()));
            redis.scriptFlush();
            assertThat(store.beginOrRepeat(key("episode"), Duration.ofMinutes(1), key("repeats"), key("stamp"), "s",
                    Duration.ofMinutes(1))).isZero();
            redis.scriptFlush();
            assertThat(store.expire(counter, Duration.ZERO)).isTrue();
            assertThat(store.ttl(counter)).isEmpty();
            assertThat(redis.scriptExists(RedisKeyValueStore.PERSIST.sha1())).isTrue();

            redis.scriptFlush();
            assertThat(redis.scriptExists(SCRIPTS.stream().map(RedisKeyValueStore.Script::sha1)
                    .toArray(String[]::new))).containsOnly(false);
            assertThat(store.increment(counter, Duration.ofMinutes(1))).isEqualTo(3);
            assertThat(redis.scriptExists(RedisKeyValueStore.INCREMENT.sha1())).isTrue();
        }
    }

    @Test
    void whenPasswordIsWrongThenPingAnswersFalseAndOperationsFailClearly() {
        var withPassword = URL.replaceFirst("^(rediss?://)(?:[^@/]*@)?", "$1:wrong-secret@");
        try (var wrong = new RedisKeyValueStore(withPassword)) {
            assertThat(wrong.ping()).isFalse();
            assertThatThrownBy(() -> wrong.get(key("k")))
                    .isInstanceOf(KeyValueStoreException.class)
                    .hasMessageNotContaining("wrong-secret");
        }
    }
}
