package dev.atrium.ai.boundary.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.concurrent.ManagedThreadFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/** The streams' pool: every stream on a thread of the server's factory, at most the configured number at once. */
class StreamThreadsTest {

    private final Set<Thread> made = ConcurrentHashMap.newKeySet();
    private final AtomicInteger count = new AtomicInteger();
    private final StreamThreads threads = new StreamThreads();

    private StreamThreads started(int max) {
        threads.factory = new ManagedThreadFactory() {
            @Override
            public Thread newThread(Runnable task) {
                Thread thread = new Thread(task, "managed-" + count.incrementAndGet());
                made.add(thread);
                return thread;
            }

            @Override
            public ForkJoinWorkerThread newThread(ForkJoinPool pool) {
                throw new UnsupportedOperationException("the streams use no fork-join pool");
            }
        };
        threads.config = ConfigDefaults.of(AiConfig.class);
        threads.config.streamThreads = max;
        threads.start();
        return threads;
    }

    @AfterEach
    void stop() {
        threads.stop();
    }

    @Test
    void whenStreamsRunThenEachRunsOnAThreadOfTheServersFactory() throws Exception {
        started(4);
        Set<Thread> ran = ConcurrentHashMap.newKeySet();
        var done = new CountDownLatch(20);
        for (int i = 0; i < 20; i++) {
            executeWhenFree(() -> {
                ran.add(Thread.currentThread());
                done.countDown();
            });
        }
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(made).containsAll(ran);
        assertThat(made).hasSizeLessThanOrEqualTo(4);
    }

    @Test
    void whenAllThreadsStreamThenOneMoreIsRefusedAndTakenOnceOneEnds() throws Exception {
        started(3);
        var release = new CountDownLatch(1);
        var running = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            threads.execute(() -> {
                running.countDown();
                await(release);
            });
        }
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(threads.active()).isEqualTo(3);
        assertThatThrownBy(() -> threads.execute(() -> { })).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE));

        release.countDown();
        var after = new CountDownLatch(1);
        executeWhenFree(after::countDown);
        assertThat(after.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(made).hasSizeLessThanOrEqualTo(3);
    }

    @Test
    void whenTheApplicationStopsThenRunningStreamsAreInterrupted() throws Exception {
        started(2);
        var interrupted = new CountDownLatch(1);
        var running = new CountDownLatch(1);
        threads.execute(() -> {
            running.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        });
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        threads.stop();
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> threads.execute(() -> { })).isInstanceOf(BusinessException.class);
    }

    @Test
    void whenTheLimitIsBelowOneThenTheApplicationDoesNotStart() throws Exception {
        threads.config = ConfigDefaults.of(AiConfig.class);
        threads.config.streamThreads = 0;
        assertThatThrownBy(threads::start).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("atrium.ai.stream-threads");
        started(1);
        var ran = new CountDownLatch(1);
        threads.execute(ran::countDown);
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
    }

    /** A thread that has just finished its task is back in the pool a moment later; latches, not sleeps. */
    private void executeWhenFree(Runnable task) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                threads.execute(task);
                return;
            } catch (BusinessException busy) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no thread came free", busy);
                }
                Thread.yield();
            }
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
