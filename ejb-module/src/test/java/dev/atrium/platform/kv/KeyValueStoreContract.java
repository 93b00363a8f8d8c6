package dev.atrium.platform.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link KeyValueStore} adapter promises. Times are a few hundred milliseconds so that the Redis
 * adapter can really wait for them; the in-process adapter moves its clock instead.
 */
abstract class KeyValueStoreContract {

    static final int THREADS = 16;

    private final String prefix = "atrium-test:" + UUID.randomUUID() + ":";
    private final Set<String> usedKeys = ConcurrentHashMap.newKeySet();

    protected abstract KeyValueStore store();

    /** Lets time pass for the store, by at least the given duration. */
    protected abstract void advance(Duration duration);

    protected abstract String expectedBackend();

    /** A key unique to this test, deleted after it. */
    protected String key(String name) {
        var key = prefix + name;
        usedKeys.add(key);
        return key;
    }

    @AfterEach
    void deleteUsedKeys() {
        usedKeys.forEach(store()::delete);
    }

    @Test
    void whenKeyIsAbsentThenGetIsEmpty() {
        assertThat(store().get(key("absent"))).isEmpty();
    }

    @Test
    void whenValueIsSetThenGetAnswersIt() {
        store().set(key("k"), "v1", null);

        assertThat(store().get(key("k"))).contains("v1");
    }

    @Test
    void whenValueHasNonAsciiCharactersThenItRoundTrips() {
        var value = "Grüße, 世界 🚀 {\"json\":true}";
        store().set(key("unicode ключ"), value, Duration.ofMinutes(1));

        assertThat(store().get(key("unicode ключ"))).contains(value);
    }

    @Test
    void whenValueIsSetAgainThenLastValueWinsAndOldTtlIsDropped() {
        store().set(key("k"), "v1", Duration.ofMinutes(1));
        store().set(key("k"), "v2", null);

        assertThat(store().get(key("k"))).contains("v2");
        assertThat(store().ttl(key("k"))).isEmpty();
    }

    @Test
    void whenTtlElapsesThenEntryIsGone() {
        store().set(key("k"), "v", Duration.ofMillis(500));
        assertThat(store().get(key("k"))).contains("v");

        advance(Duration.ofMillis(700));

        assertThat(store().get(key("k"))).isEmpty();
        assertThat(store().ttl(key("k"))).isEmpty();
        assertThat(store().getAndDelete(key("k"))).isEmpty();
        assertThat(store().delete(key("k"))).isFalse();
        assertThat(store().expire(key("k"), Duration.ofMinutes(1))).isFalse();
    }

    @Test
    void whenTtlIsNullZeroOrNegativeThenEntryNeverExpires() {
        store().set(key("null"), "v", null);
        store().set(key("zero"), "v", Duration.ZERO);
        store().set(key("negative"), "v", Duration.ofSeconds(-5));

        advance(Duration.ofMillis(300));

        for (var name : List.of("null", "zero", "negative")) {
            assertThat(store().get(key(name))).as(name).contains("v");
            assertThat(store().ttl(key(name))).as(name).isEmpty();
        }
    }

    @Test
    void whenSetWithTtlThenTtlAnswersTheRemainingTime() {
        store().set(key("k"), "v", Duration.ofSeconds(10));

        assertThat(store().ttl(key("k"))).hasValueSatisfying(ttl ->
                assertThat(ttl).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(10)));
    }

    @Test
    void whenTtlIsBelowOneMillisecondThenEntryStillExpires() {
        store().set(key("k"), "v", Duration.ofNanos(1));

        advance(Duration.ofMillis(50));

        assertThat(store().get(key("k"))).isEmpty();
    }

    @Test
    void whenKeyHasNoTtlThenTtlIsEmpty() {
        store().set(key("k"), "v", null);

        assertThat(store().ttl(key("k"))).isEmpty();
    }

    @Test
    void whenKeyIsAbsentThenTtlIsEmpty() {
        assertThat(store().ttl(key("absent"))).isEmpty();
    }

    @Test
    void whenKeyIsAbsentThenSetIfAbsentCreatesIt() {
        assertThat(store().setIfAbsent(key("k"), "first", Duration.ofMinutes(1))).isTrue();

        assertThat(store().get(key("k"))).contains("first");
        assertThat(store().ttl(key("k"))).isPresent();
    }

    @Test
    void whenKeyIsPresentThenSetIfAbsentKeepsTheValueAndTtl() {
        store().set(key("k"), "first", null);

        assertThat(store().setIfAbsent(key("k"), "second", Duration.ofMinutes(1))).isFalse();
        assertThat(store().get(key("k"))).contains("first");
        assertThat(store().ttl(key("k"))).isEmpty();
    }

    @Test
    void whenEntryHasExpiredThenSetIfAbsentCreatesItAgain() {
        store().setIfAbsent(key("k"), "first", Duration.ofMillis(500));

        advance(Duration.ofMillis(700));

        assertThat(store().setIfAbsent(key("k"), "second", null)).isTrue();
        assertThat(store().get(key("k"))).contains("second");
    }

    @Test
    void whenSetIfAbsentCreatesWithTtlThenEntryExpires() {
        store().setIfAbsent(key("k"), "v", Duration.ofMillis(500));

        advance(Duration.ofMillis(700));

        assertThat(store().get(key("k"))).isEmpty();
    }

    @Test
    void whenManyThreadsSetIfAbsentThenExactlyOneWins() throws Exception {
        var key = key("race");

        var results = concurrently(THREADS, i -> store().setIfAbsent(key, "thread-" + i, Duration.ofMinutes(1)));

        assertThat(results).containsOnlyOnce(true);
        int winner = results.indexOf(true);
        assertThat(store().get(key)).contains("thread-" + winner);
    }

    @Test
    void whenKeyIsPresentThenDeleteRemovesItAndAnswersTrue() {
        store().set(key("k"), "v", null);

        assertThat(store().delete(key("k"))).isTrue();
        assertThat(store().get(key("k"))).isEmpty();
    }

    @Test
    void whenKeyIsAbsentThenDeleteAnswersFalse() {
        assertThat(store().delete(key("absent"))).isFalse();
    }

    @Test
    void whenGetAndDeleteThenValueIsConsumedOnce() {
        store().set(key("ticket"), "payload", Duration.ofMinutes(1));

        assertThat(store().getAndDelete(key("ticket"))).contains("payload");
        assertThat(store().getAndDelete(key("ticket"))).isEmpty();
        assertThat(store().get(key("ticket"))).isEmpty();
    }

    @Test
    void whenSeveralKeysAreReadAtOnceThenEachAnswersInTheOrderAsked() {
        store().set(key("a"), "first", Duration.ofMillis(800));
        store().set(key("c"), "third", null);

        assertThat(store().getAll(List.of(key("c"), key("b"), key("a"), key("c"))))
                .containsExactly(Optional.of("third"), Optional.empty(), Optional.of("first"), Optional.of("third"));
        assertThat(store().getAll(List.of())).isEmpty();

        advance(Duration.ofMillis(1_000));

        assertThat(store().getAll(List.of(key("a"), key("c")))).containsExactly(Optional.empty(), Optional.of("third"));
    }

    @Test
    void whenGetAndSetThenTheReplacedValueIsAnsweredAndTheNewOneKeptWithItsTtl() {
        assertThat(store().getAndSet(key("place"), "first", Duration.ofMillis(800))).isEmpty();
        assertThat(store().getAndSet(key("place"), "second", Duration.ofMillis(800))).contains("first");
        assertThat(store().get(key("place"))).contains("second");
        assertThat(store().ttl(key("place"))).hasValueSatisfying(t -> assertThat(t).isPositive()
                .isLessThanOrEqualTo(Duration.ofMillis(800)));

        advance(Duration.ofMillis(1_000));

        assertThat(store().getAndSet(key("place"), "third", null)).isEmpty();
        assertThat(store().ttl(key("place"))).isEmpty();
    }

    @Test
    void whenManyThreadsGetAndSetThenEachValueIsReplacedExactlyOnce() throws Exception {
        var key = key("chain");
        store().set(key, "start", Duration.ofMinutes(1));

        var replaced = concurrently(THREADS, i -> store().getAndSet(key, "v" + i, Duration.ofMinutes(1)));

        // every value written but the last one standing was handed to exactly one caller, "start" included
        var seen = new java.util.ArrayList<String>();
        replaced.forEach(r -> seen.add(r.orElseThrow()));
        seen.add(store().get(key).orElseThrow());
        var written = new java.util.ArrayList<String>(List.of("start"));
        for (int i = 0; i < THREADS; i++) {
            written.add("v" + i);
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(written);
    }

    @Test
    void whenKeyIsAbsentThenGetAndDeleteIsEmpty() {
        assertThat(store().getAndDelete(key("absent"))).isEmpty();
    }

    @Test
    void whenManyThreadsGetAndDeleteThenExactlyOneGetsTheValue() throws Exception {
        var key = key("ticket");
        store().set(key, "payload", Duration.ofMinutes(1));

        var results = concurrently(THREADS, i -> store().getAndDelete(key));

        assertThat(results).containsOnlyOnce(Optional.of("payload"));
        assertThat(results.stream().filter(Optional::isEmpty)).hasSize(THREADS - 1);
    }

    @Test
    void whenCounterIsAbsentThenIncrementStartsAtOne() {
        assertThat(store().increment(key("c"), Duration.ofMinutes(1))).isEqualTo(1);
        assertThat(store().increment(key("c"), Duration.ofMinutes(1))).isEqualTo(2);
        assertThat(store().get(key("c"))).contains("2");
    }

    @Test
    void whenCounterExistsThenIncrementKeepsItsFirstTtl() {
        store().increment(key("c"), Duration.ofMillis(800));
        advance(Duration.ofMillis(300));

        assertThat(store().increment(key("c"), Duration.ofSeconds(30))).isEqualTo(2);
        assertThat(store().ttl(key("c"))).hasValueSatisfying(ttl ->
                assertThat(ttl).isLessThanOrEqualTo(Duration.ofMillis(500)));

        advance(Duration.ofMillis(700));

        assertThat(store().get(key("c"))).isEmpty();
    }

    @Test
    void whenCounterWindowHasExpiredThenIncrementStartsAgainWithNewTtl() {
        store().increment(key("c"), Duration.ofMillis(500));
        store().increment(key("c"), Duration.ofMillis(500));

        advance(Duration.ofMillis(700));

        assertThat(store().increment(key("c"), Duration.ofMinutes(1))).isEqualTo(1);
        assertThat(store().ttl(key("c"))).hasValueSatisfying(ttl ->
                assertThat(ttl).isGreaterThan(Duration.ofSeconds(50)));
    }

    @Test
    void whenCounterIsCreatedWithoutTtlThenItNeverExpires() {
        store().increment(key("c"), null);
        store().increment(key("zero"), Duration.ZERO);

        advance(Duration.ofMillis(300));

        assertThat(store().get(key("c"))).contains("1");
        assertThat(store().ttl(key("c"))).isEmpty();
        assertThat(store().ttl(key("zero"))).isEmpty();
    }

    @Test
    void whenCounterWasSetAsTextThenIncrementContinuesFromItAndKeepsItsTtl() {
        store().set(key("c"), "41", null);

        assertThat(store().increment(key("c"), Duration.ofMinutes(1))).isEqualTo(42);
        assertThat(store().ttl(key("c"))).isEmpty();
    }

    @Test
    void whenCounterHoldsZeroThenIncrementDoesNotRestartItsWindow() {
        store().set(key("c"), "0", null);

        assertThat(store().increment(key("c"), Duration.ofMinutes(1))).isEqualTo(1);
        assertThat(store().ttl(key("c"))).isEmpty();
    }

    @Test
    void whenValueIsNotAnIntegerThenIncrementFailsAndKeepsTheValue() {
        store().set(key("text"), "not a number", null);

        assertThatThrownBy(() -> store().increment(key("text"), null)).isInstanceOf(KeyValueStoreException.class);
        assertThat(store().get(key("text"))).contains("not a number");
    }

    /**
     * Hostile or foreign values where a counter is read: text, blanks, signs, spaces, a float, overflow. A counter
     * that cannot be read fails as its increment fails, never with another exception, and is left as it was.
     */
    @Test
    void whenACounterHoldsWhatIsNotAnIntegerThenCountFailsAsIncrementDoes() {
        for (String value : List.of("not a number", "", " ", "12 ", " 12", "1.5", "0x10", "9223372036854775808",
                "-9223372036854775809", "1e3", "١٢", "12\n", "012", "+5", "-0")) {
            store().set(key("hostile"), value, null);

            assertThatThrownBy(() -> store().count(key("hostile"))).as("count of %s", value)
                    .isInstanceOf(KeyValueStoreException.class);
            assertThatThrownBy(() -> store().increment(key("hostile"), null)).as("increment of %s", value)
                    .isInstanceOf(KeyValueStoreException.class);
            assertThat(store().get(key("hostile"))).contains(value);
        }
        assertThat(store().count(key("absent"))).isZero();
    }

    /**
     * A seeded run of random values: count answers what increment would start from, or fails as increment does.
     * Values stay within 15 characters: Redis's scripts count in doubles, exact to 2^53.
     */
    @Test
    void whenCountersHoldRandomValuesThenCountAgreesWithIncrement() {
        var random = new java.util.Random(20261127L);
        String alphabet = "0123456789-+ .eE\tx";
        for (int i = 0; i < 300; i++) {
            var value = new StringBuilder();
            int length = random.nextInt(16);
            for (int c = 0; c < length; c++) {
                value.append(alphabet.charAt(random.nextInt(random.nextBoolean() ? 10 : alphabet.length())));
            }
            String key = key("random-" + i);
            store().set(key, value.toString(), null);
            Long counted;
            try {
                counted = store().count(key);
            } catch (KeyValueStoreException e) {
                counted = null;
            }
            Long incremented;
            try {
                incremented = store().increment(key, null) - 1;
            } catch (KeyValueStoreException e) {
                incremented = null;
            }
            if (counted == null || counted == Long.MAX_VALUE) {
                // an overflow fails the increment, not the read; anything else must fail both
                assertThat(counted == null ? incremented : null).as("value [%s]", value).isNull();
            } else {
                assertThat(incremented).as("value [%s]", value).isEqualTo(counted);
            }
        }
    }

    @Test
    void whenManyThreadsIncrementThenTheSumIsExact() throws Exception {
        var key = key("counter");
        int perThread = 50;

        concurrently(THREADS, i -> {
            for (int n = 0; n < perThread; n++) {
                store().increment(key, Duration.ofMinutes(1));
            }
            return null;
        });

        assertThat(store().get(key)).contains(Integer.toString(THREADS * perThread));
    }

    @Test
    void whenAnEpisodeBeginsThenItsKeyIsSetAndNothingIsCounted() {
        long answer = store().beginOrRepeat(key("episode"), Duration.ofMinutes(1), key("count"), key("last"), "100",
                Duration.ofMinutes(5));

        assertThat(answer).isZero();
        assertThat(store().get(key("episode"))).contains("1");
        assertThat(store().ttl(key("episode"))).hasValueSatisfying(ttl ->
                assertThat(ttl).isGreaterThan(Duration.ofSeconds(50)).isLessThanOrEqualTo(Duration.ofMinutes(1)));
        assertThat(store().get(key("count"))).isEmpty();
        assertThat(store().get(key("last"))).isEmpty();
    }

    @Test
    void whenAnEpisodeRepeatsThenEachRepeatIsCountedAndTheLastStamped() {
        store().beginOrRepeat(key("episode"), Duration.ofMinutes(1), key("count"), key("last"), "100",
                Duration.ofMinutes(5));

        assertThat(store().beginOrRepeat(key("episode"), Duration.ofMinutes(1), key("count"), key("last"), "200",
                Duration.ofMinutes(5))).isEqualTo(1);
        assertThat(store().beginOrRepeat(key("episode"), Duration.ofMinutes(1), key("count"), key("last"), "300",
                Duration.ofMinutes(5))).isEqualTo(2);

        assertThat(store().get(key("count"))).contains("2");
        assertThat(store().get(key("last"))).contains("300");
        assertThat(store().ttl(key("count"))).hasValueSatisfying(ttl ->
                assertThat(ttl).isGreaterThan(Duration.ofMinutes(4)));
        assertThat(store().ttl(key("last"))).hasValueSatisfying(ttl ->
                assertThat(ttl).isGreaterThan(Duration.ofMinutes(4)));
        assertThat(store().ttl(key("episode"))).hasValueSatisfying(ttl ->
                assertThat(ttl).isLessThanOrEqualTo(Duration.ofMinutes(1)));
    }

    @Test
    void whenTheEpisodeHasEndedThenTheNextOccurrenceBeginsAnotherAndTheCountIsKept() {
        store().beginOrRepeat(key("episode"), Duration.ofMillis(500), key("count"), key("last"), "1", null);
        store().beginOrRepeat(key("episode"), Duration.ofMillis(500), key("count"), key("last"), "2", null);

        advance(Duration.ofMillis(700));

        assertThat(store().beginOrRepeat(key("episode"), Duration.ofMillis(500), key("count"), key("last"), "3",
                null)).isZero();
        assertThat(store().get(key("count"))).contains("1");
        assertThat(store().get(key("last"))).contains("2");
        assertThat(store().ttl(key("count"))).isEmpty();
        assertThat(store().ttl(key("last"))).isEmpty();
    }

    @Test
    void whenTheRepeatCounterIsNotAnIntegerThenTheRepeatFailsAndChangesNothing() {
        store().set(key("episode"), "1", Duration.ofMinutes(1));
        store().set(key("count"), "lots", null);
        store().set(key("last"), "100", null);

        assertThatThrownBy(() -> store().beginOrRepeat(key("episode"), Duration.ofMinutes(1), key("count"),
                key("last"), "200", null)).isInstanceOf(KeyValueStoreException.class);

        assertThat(store().get(key("count"))).contains("lots");
        assertThat(store().get(key("last"))).contains("100");
    }

    @Test
    void whenManyThreadsRaiseAtOnceThenOneBeginsTheEpisodeAndTheRestAreCounted() throws Exception {
        var results = concurrently(THREADS, i -> store().beginOrRepeat(key("episode"), Duration.ofMinutes(1),
                key("count"), key("last"), Integer.toString(i), Duration.ofMinutes(1)));

        assertThat(results).containsOnlyOnce(0L);
        assertThat(results).containsExactlyInAnyOrderElementsOf(
                java.util.stream.LongStream.range(0, THREADS).boxed().toList());
        assertThat(store().get(key("count"))).contains(Integer.toString(THREADS - 1));
    }

    @Test
    void whenAHitIsCountedWithReadsThenTheCountRisesAndTheValuesAreAnsweredInOrder() {
        store().set(key("a"), "alpha", Duration.ofMinutes(1));
        store().set(key("c"), "", null);

        var first = store().incrementAndGetAll(key("hits"), Duration.ofMinutes(5),
                List.of(key("a"), key("b"), key("c"), key("hits")));
        var second = store().incrementAndGetAll(key("hits"), Duration.ofMinutes(9), List.of(key("b")));

        assertThat(first).isEqualTo(new KeyValueStore.CountAndValues(1,
                List.of(Optional.of("alpha"), Optional.empty(), Optional.of(""), Optional.of("1"))));
        assertThat(second).isEqualTo(new KeyValueStore.CountAndValues(2, List.of(Optional.empty())));
        assertThat(store().ttl(key("hits"))).as("the counter keeps the ttl it was created with")
                .hasValueSatisfying(ttl -> assertThat(ttl).isLessThanOrEqualTo(Duration.ofMinutes(5))
                        .isGreaterThan(Duration.ofMinutes(4)));
    }

    @Test
    void whenAHitIsCountedWithNothingToReadOrNoTtlThenOnlyTheCountIsAnsweredAndItNeverExpires() {
        var answer = store().incrementAndGetAll(key("hits"), null, List.of());

        assertThat(answer).isEqualTo(new KeyValueStore.CountAndValues(1, List.of()));
        assertThat(store().ttl(key("hits"))).isEmpty();
    }

    @Test
    void whenTheCounterOfACountWithReadsIsNotAnIntegerThenItFailsAndChangesNothing() {
        store().set(key("hits"), "lots", null);
        store().set(key("a"), "kept", null);

        assertThatThrownBy(() -> store().incrementAndGetAll(key("hits"), null, List.of(key("a"))))
                .isInstanceOf(KeyValueStoreException.class);

        assertThat(store().get(key("hits"))).contains("lots");
        assertThat(store().get(key("a"))).contains("kept");
    }

    @Test
    void whenManyCountWithReadsAtOnceThenEveryHitIsCountedOnce() throws Exception {
        var results = concurrently(THREADS, i -> store().incrementAndGetAll(key("hits"), Duration.ofMinutes(1),
                List.of(key("a"))).count());

        assertThat(results).containsExactlyInAnyOrderElementsOf(
                LongStream.rangeClosed(1, THREADS).boxed().toList());
    }

    @Test
    void whenAnEventIsCountedAndSwappedThenTheCountRisesAndTheReplacedValueIsAnswered() {
        var first = store().incrementAndSwap(key("count"), Duration.ofMinutes(5), key("place"), "first",
                Duration.ofMinutes(1));
        var second = store().incrementAndSwap(key("count"), Duration.ofMinutes(9), key("place"), "second",
                Duration.ofMinutes(2));

        assertThat(first).isEqualTo(new KeyValueStore.CountAndSwap(1, Optional.empty()));
        assertThat(second).isEqualTo(new KeyValueStore.CountAndSwap(2, Optional.of("first")));
        assertThat(store().get(key("count"))).contains("2");
        assertThat(store().get(key("place"))).contains("second");
        assertThat(store().ttl(key("count"))).as("the counter keeps the ttl it was created with")
                .hasValueSatisfying(ttl -> assertThat(ttl).isLessThanOrEqualTo(Duration.ofMinutes(5))
                        .isGreaterThan(Duration.ofMinutes(4)));
        assertThat(store().ttl(key("place"))).as("the swapped value takes the latest ttl")
                .hasValueSatisfying(ttl -> assertThat(ttl).isGreaterThan(Duration.ofMinutes(1)));
    }

    @Test
    void whenCountedAndSwappedWithoutTtlsThenNeitherExpiresAndAnEmptyValueIsAValue() {
        store().set(key("place"), "old", Duration.ofMinutes(1));

        var answer = store().incrementAndSwap(key("count"), null, key("place"), "", Duration.ZERO);
        var again = store().incrementAndSwap(key("count"), null, key("place"), "next", null);

        assertThat(answer).isEqualTo(new KeyValueStore.CountAndSwap(1, Optional.of("old")));
        assertThat(again.replaced()).contains("");
        assertThat(store().ttl(key("count"))).isEmpty();
        assertThat(store().ttl(key("place"))).isEmpty();
    }

    @Test
    void whenTheCounterOfACountAndSwapIsNotAnIntegerThenItFailsAndSwapsNothing() {
        store().set(key("count"), "lots", null);
        store().set(key("place"), "kept", null);

        assertThatThrownBy(() -> store().incrementAndSwap(key("count"), null, key("place"), "new", null))
                .isInstanceOf(KeyValueStoreException.class);

        assertThat(store().get(key("count"))).contains("lots");
        assertThat(store().get(key("place"))).contains("kept");
    }

    /** A seeded run: the one call answers and leaves what increment and getAndSet leave on a twin pair of keys. */
    @Test
    void whenCountsAndSwapsComeInRandomOrderThenTheyAgreeWithIncrementAndGetAndSet() {
        var random = new java.util.Random(20261128L);
        String alphabet = "ab|: 0é\u00ff\t{}\"'";
        for (int i = 0; i < 200; i++) {
            int pair = random.nextInt(4);
            var value = new StringBuilder();
            int length = random.nextInt(12);
            for (int c = 0; c < length; c++) {
                value.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            Duration ttl = random.nextBoolean() ? null : Duration.ofMinutes(1 + random.nextInt(5));
            var together = store().incrementAndSwap(key("count-" + pair), ttl, key("place-" + pair),
                    value.toString(), ttl);
            long count = store().increment(key("twin-count-" + pair), ttl);
            var replaced = store().getAndSet(key("twin-place-" + pair), value.toString(), ttl);
            assertThat(together).as("step %d, value [%s]", i, value)
                    .isEqualTo(new KeyValueStore.CountAndSwap(count, replaced));
        }
    }

    @Test
    void whenManyThreadsCountAndSwapThenEachCountIsAnsweredOnceAndEachValueReplacedOnce() throws Exception {
        var results = concurrently(THREADS, i -> store().incrementAndSwap(key("count"), Duration.ofMinutes(1),
                key("place"), "v" + i, Duration.ofMinutes(1)));

        assertThat(results).extracting(KeyValueStore.CountAndSwap::count).containsExactlyInAnyOrderElementsOf(
                LongStream.rangeClosed(1, THREADS).boxed().toList());
        var replaced = new ArrayList<String>();
        results.forEach(r -> r.replaced().ifPresent(replaced::add));
        assertThat(replaced).hasSize(THREADS - 1).doesNotHaveDuplicates();
        replaced.add(store().get(key("place")).orElseThrow());
        assertThat(replaced).containsExactlyInAnyOrderElementsOf(
                java.util.stream.IntStream.range(0, THREADS).mapToObj(i -> "v" + i).toList());
    }

    @Test
    void whenExpireOnPresentKeyThenTtlIsRenewed() {
        store().set(key("session"), "v", Duration.ofMillis(600));
        advance(Duration.ofMillis(300));

        assertThat(store().expire(key("session"), Duration.ofMillis(1500))).isTrue();
        advance(Duration.ofMillis(500));

        assertThat(store().get(key("session"))).contains("v");
        assertThat(store().ttl(key("session"))).hasValueSatisfying(ttl ->
                assertThat(ttl).isPositive().isLessThanOrEqualTo(Duration.ofMillis(1000)));
    }

    @Test
    void whenExpireShortensTheTtlThenEntryExpiresSooner() {
        store().set(key("k"), "v", null);

        assertThat(store().expire(key("k"), Duration.ofMillis(500))).isTrue();
        advance(Duration.ofMillis(700));

        assertThat(store().get(key("k"))).isEmpty();
    }

    @Test
    void whenExpireOnAbsentKeyThenAnswersFalseAndCreatesNothing() {
        assertThat(store().expire(key("absent"), Duration.ofMinutes(1))).isFalse();
        assertThat(store().get(key("absent"))).isEmpty();
    }

    @Test
    void whenExpireWithoutTtlThenEntryNeverExpires() {
        store().set(key("k"), "v", Duration.ofMillis(500));

        assertThat(store().expire(key("k"), null)).isTrue();
        advance(Duration.ofMillis(700));

        assertThat(store().get(key("k"))).contains("v");
        assertThat(store().ttl(key("k"))).isEmpty();
        assertThat(store().expire(key("absent"), Duration.ZERO)).isFalse();
    }

    @Test
    void whenKeyOrValueIsNullThenNullPointerException() {
        assertThatThrownBy(() -> store().set(key("k"), null, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> store().get(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void whenStoreIsUpThenPingAnswersTrue() {
        assertThat(store().ping()).isTrue();
    }

    @Test
    void whenAskedThenBackendIsNamed() {
        assertThat(store().backend()).isEqualTo(expectedBackend());
    }

    /** Runs the task on that many threads released at the same moment, and answers each result by thread index. */
    static <T> List<T> concurrently(int threads, IndexedTask<T> task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            var ready = new CountDownLatch(threads);
            var start = new CountDownLatch(1);
            var futures = new ArrayList<Future<T>>();
            for (int i = 0; i < threads; i++) {
                int index = i;
                Callable<T> call = () -> {
                    ready.countDown();
                    start.await();
                    return task.run(index);
                };
                futures.add(pool.submit(call));
            }
            ready.await();
            start.countDown();
            var results = new ArrayList<T>();
            for (var future : futures) {
                results.add(future.get(30, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    @FunctionalInterface
    interface IndexedTask<T> {
        T run(int index) throws Exception;
    }

    @Test
    void whenAddingAmountsThenTheyAccumulateAndTheTtlStartsAtCreation() {
        String k = key("tokens");
        assertThat(store().add(k, 250, Duration.ofSeconds(2))).isEqualTo(250);
        assertThat(store().add(k, 100, Duration.ofSeconds(60))).isEqualTo(350);
        assertThat(store().increment(k, Duration.ofSeconds(60))).isEqualTo(351);
        advance(Duration.ofMillis(2100));
        assertThat(store().get(k)).isEmpty();
        assertThat(store().add(k, 5, Duration.ofSeconds(60))).isEqualTo(5);
    }
}
