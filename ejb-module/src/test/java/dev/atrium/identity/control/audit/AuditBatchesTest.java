package dev.atrium.identity.control.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.atrium.identity.entity.AuditLog;

class AuditBatchesTest {

    private static final Instant AT = Instant.parse("2026-11-27T22:00:00Z");

    /** Records each batch's actions; refuses a batch holding a {@code refused} entry; may hold its first batch. */
    private static final class RecordingWriter extends AuditWriter {

        final List<List<String>> batches = Collections.synchronizedList(new ArrayList<>());
        final List<String> committed = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch holdFirst = new CountDownLatch(0);
        final CountDownLatch firstStarted = new CountDownLatch(1);
        volatile boolean down;

        @Override
        public void write(List<Supplier<AuditLog>> entries) {
            var actions = entries.stream().map(e -> e.get().action()).toList();
            batches.add(actions);
            firstStarted.countDown();
            try {
                holdFirst.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (down) {
                throw new IllegalStateException("Connection to 127.0.0.1:5432 refused");
            }
            if (actions.stream().anyMatch(a -> a.startsWith("refused"))) {
                throw new IllegalStateException("value too long for type character varying(50)");
            }
            committed.addAll(actions);
        }
    }

    private final RecordingWriter writer = new RecordingWriter();
    private final AuditBatches batches = new AuditBatches();
    private final ExecutorService callers = Executors.newFixedThreadPool(16);

    {
        batches.writer = writer;
    }

    @AfterEach
    void stop() {
        callers.shutdownNow();
    }

    private static Supplier<AuditLog> entry(String action) {
        return () -> new AuditLog(7L, null, action, "10.0.0.1", "test", true, AT);
    }

    /** The caller's entry is committed by the time it returns. */
    private Future<?> write(String action) {
        return callers.submit(() -> {
            batches.write(entry(action));
            // the list's own (synchronized) contains: other callers' batches may be adding to it meanwhile
            assertThat(writer.committed.contains(action)).as(action + " committed before its caller returns").isTrue();
        });
    }

    private void awaitWaiting(int count) throws InterruptedException {
        for (int i = 0; i < 1000 && batches.waiting() < count; i++) {
            Thread.sleep(5);
        }
        assertThat(batches.waiting()).isEqualTo(count);
    }

    @Test
    void whenARequestIsAloneThenItsEntryIsWrittenAtOnceByItself() {
        batches.write(entry("login"));
        batches.write(entry("refresh"));
        assertThat(writer.batches).containsExactly(List.of("login"), List.of("refresh"));
    }

    @Test
    void whenEntriesComeWhileABatchIsWrittenThenTheNextBatchTakesThemAllAndEachCallerWaitsForItsOwn()
            throws Exception {
        writer.holdFirst = new CountDownLatch(1);
        var first = write("first");
        assertThat(writer.firstStarted.await(10, TimeUnit.SECONDS)).isTrue();
        List<Future<?>> later = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            later.add(write("later-" + i));
        }
        awaitWaiting(5);
        assertThat(later).noneMatch(Future::isDone);
        writer.holdFirst.countDown();
        first.get(10, TimeUnit.SECONDS);
        for (var f : later) {
            f.get(10, TimeUnit.SECONDS);
        }
        assertThat(writer.batches).hasSize(2);
        assertThat(writer.batches.get(0)).containsExactly("first");
        assertThat(writer.batches.get(1)).containsExactlyInAnyOrder("later-0", "later-1", "later-2", "later-3",
                "later-4");
    }

    @Test
    void whenMoreThanABatchWaitThenTheyAreWrittenInBatchesOfAtMostTheLimit() throws Exception {
        writer.holdFirst = new CountDownLatch(1);
        var first = write("first");
        assertThat(writer.firstStarted.await(10, TimeUnit.SECONDS)).isTrue();
        var many = Executors.newFixedThreadPool(AuditBatches.MOST + 20);
        try {
            List<Future<?>> later = new ArrayList<>();
            for (int i = 0; i < AuditBatches.MOST + 20; i++) {
                String action = "later-" + i;
                later.add(many.submit(() -> batches.write(entry(action))));
            }
            awaitWaiting(AuditBatches.MOST + 20);
            writer.holdFirst.countDown();
            first.get(10, TimeUnit.SECONDS);
            for (var f : later) {
                f.get(10, TimeUnit.SECONDS);
            }
        } finally {
            many.shutdownNow();
        }
        assertThat(writer.batches.stream().map(List::size).toList()).containsExactly(1, AuditBatches.MOST, 20);
        assertThat(writer.committed).hasSize(AuditBatches.MOST + 21).doesNotHaveDuplicates();
    }

    @Test
    void whenABatchIsRefusedThenEachEntryIsWrittenAloneAndOnlyTheRefusedOnesCallerFails() throws Exception {
        writer.holdFirst = new CountDownLatch(1);
        var first = write("first");
        assertThat(writer.firstStarted.await(10, TimeUnit.SECONDS)).isTrue();
        var good = write("good");
        var refused = callers.submit(() -> batches.write(entry("refused")));
        var alsoGood = write("also-good");
        awaitWaiting(3);
        writer.holdFirst.countDown();
        first.get(10, TimeUnit.SECONDS);
        good.get(10, TimeUnit.SECONDS);
        alsoGood.get(10, TimeUnit.SECONDS);
        assertThatThrownBy(() -> refused.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalStateException.class);
        assertThat(writer.committed).containsExactlyInAnyOrder("first", "good", "also-good");
        assertThat(writer.batches.get(1)).hasSize(3);
        assertThat(writer.batches.subList(2, 5)).allMatch(b -> b.size() == 1);
    }

    @Test
    void whenTheDatabaseFailsThenABatchTriesTwoEntriesAloneAndFailsTheRestAtOnce() throws Exception {
        writer.holdFirst = new CountDownLatch(1);
        var first = write("first");
        assertThat(writer.firstStarted.await(10, TimeUnit.SECONDS)).isTrue();
        List<Future<?>> later = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String action = "later-" + i;
            later.add(callers.submit(() -> batches.write(entry(action))));
        }
        awaitWaiting(5);
        writer.down = true;
        writer.holdFirst.countDown();
        assertThatThrownBy(() -> first.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalStateException.class);
        for (var f : later) {
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalStateException.class);
        }
        assertThat(writer.batches.stream().map(List::size).toList()).containsExactly(1, 5, 1, 1);
        assertThat(writer.committed).isEmpty();
    }

    /**
     * Seeded runs: any mix of callers and refusals. Every refused entry fails its caller; a caller returns only once
     * its entry is committed, and then exactly once; a good entry fails only where two refusals met in its batch.
     */
    @Test
    void whenManyCallersWriteAtOnceThenEveryCallerIsToldTheTruthAndNoEntryIsCommittedTwice() throws Exception {
        var random = new Random(20261127);
        int goodCommitted = 0;
        int good = 0;
        for (int run = 0; run < 30; run++) {
            var runWriter = new RecordingWriter();
            var runBatches = new AuditBatches();
            runBatches.writer = runWriter;
            int count = 1 + random.nextInt(40);
            List<String> actions = new ArrayList<>();
            List<Future<?>> results = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String action = (random.nextInt(8) == 0 ? "refused-" : "ok-") + run + "-" + i;
                actions.add(action);
                results.add(callers.submit(() -> runBatches.write(entry(action))));
            }
            for (int i = 0; i < count; i++) {
                String action = actions.get(i);
                var result = results.get(i);
                boolean returned;
                try {
                    result.get(10, TimeUnit.SECONDS);
                    returned = true;
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e).hasCauseInstanceOf(IllegalStateException.class);
                    returned = false;
                }
                assertThat(returned).as(action + " returned iff committed").isEqualTo(
                        runWriter.committed.contains(action));
                if (action.startsWith("refused")) {
                    assertThat(returned).as(action).isFalse();
                } else {
                    good++;
                    goodCommitted += returned ? 1 : 0;
                }
            }
            assertThat(runWriter.committed).as("run " + run).doesNotHaveDuplicates()
                    .allMatch(a -> a.startsWith("ok"));
            assertThat(runWriter.batches).allMatch(b -> b.size() <= AuditBatches.MOST);
        }
        assertThat(goodCommitted).as("good entries committed of %d", good).isGreaterThan(good * 9 / 10);
    }
}
