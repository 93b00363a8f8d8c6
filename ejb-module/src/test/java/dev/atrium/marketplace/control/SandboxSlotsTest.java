package dev.atrium.marketplace.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

class SandboxSlotsTest {

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void whenEverySlotIsBusyPastTheWaitThenTheCallerGets503WithRetryAfter() throws Exception {
        var slots = new SandboxSlots(2, Duration.ofMillis(200));
        var release = new CountDownLatch(1);
        var holding = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) {
            threads.submit(() -> slots.run(() -> {
                holding.countDown();
                await(release);
                return null;
            }));
        }
        assertThat(holding.await(5, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(() -> slots.run(() -> "never"))
                .isInstanceOfSatisfying(BusinessException.class, e -> {
                    assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE);
                    assertThat(e.headers()).containsKey("Retry-After");
                });
        assertThat(slots.free()).isZero();
        release.countDown();
    }

    @Test
    void whenASlotFreesWithinTheWaitThenTheWaitingCallerRuns() throws Exception {
        var slots = new SandboxSlots(1, Duration.ofSeconds(5));
        var holding = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        threads.submit(() -> slots.run(() -> {
            holding.countDown();
            await(release);
            return null;
        }));
        assertThat(holding.await(5, TimeUnit.SECONDS)).isTrue();
        Future<String> waiting = threads.submit(() -> slots.run(() -> "ran"));

        release.countDown();

        assertThat(waiting.get(5, TimeUnit.SECONDS)).isEqualTo("ran");
        assertThat(slots.free()).isEqualTo(1);
    }

    @Test
    void whenManyCallersRunThenNeverMoreThanTheSlotsRunAtOnceAndEverySlotComesBack() throws Exception {
        var slots = new SandboxSlots(3, Duration.ofSeconds(30));
        var running = new AtomicInteger();
        var most = new AtomicInteger();
        var futures = new ArrayList<Future<Integer>>();
        for (int i = 0; i < 40; i++) {
            futures.add(threads.submit(() -> slots.run(() -> {
                int now = running.incrementAndGet();
                most.accumulateAndGet(now, Math::max);
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                running.decrementAndGet();
                if (now % 7 == 0) {
                    throw new IllegalStateException("a failing run still gives its slot back");
                }
                return now;
            })));
        }
        for (var f : futures) {
            try {
                f.get(30, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException expected) {
                assertThat(expected.getCause()).isInstanceOf(IllegalStateException.class);
            }
        }

        assertThat(most.get()).isBetween(1, 3);
        assertThat(slots.free()).isEqualTo(3);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
