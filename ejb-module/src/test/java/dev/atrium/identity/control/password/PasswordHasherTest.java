package dev.atrium.identity.control.password;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * Hashes are computed on the hasher's own threads, never more at once than it has, whatever number of callers ask;
 * a caller whose hash has not begun within the wait gets 503 with Retry-After, and that hash is dropped, not
 * computed for nobody; a hash under way when the wait ends is still answered.
 */
class PasswordHasherTest {

    private static final String STORED = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNo";

    private final ExecutorService callers = Executors.newCachedThreadPool();
    private final Set<String> hashingThreads = ConcurrentHashMap.newKeySet();
    private final ThreadFactory factory = work -> {
        Thread thread = new Thread(work, "hashing-" + hashingThreads.size());
        thread.setDaemon(true);
        hashingThreads.add(thread.getName());
        return thread;
    };

    @AfterEach
    void stop() {
        callers.shutdownNow();
    }

    @Test
    void whenEightCallersCheckAtOnceThenNoMoreThanTheHashingThreadsComputeAndAllAreAnswered() throws Exception {
        var engine = new GatedEngine();
        var hasher = new PasswordHasher(engine, factory, 2, 10);
        engine.shut();
        List<Future<Boolean>> answers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            answers.add(callers.submit(() -> hasher.matches("Bench-Passw0rd", STORED)));
        }
        assertThat(engine.entered.tryAcquire(2, 10, TimeUnit.SECONDS)).isTrue();
        // two are inside the engine; a third may not follow while they are
        assertThat(engine.entered.tryAcquire(1, 300, TimeUnit.MILLISECONDS)).isFalse();
        engine.open();
        for (var answer : answers) {
            assertThat(answer.get(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(engine.mostAtOnce.get()).isEqualTo(2);
        assertThat(engine.calls.get()).isEqualTo(8);
        assertThat(engine.threads).allMatch(name -> name.startsWith("hashing-")).hasSize(2);
    }

    @Test
    void whenNoHashingThreadFreesUpWithinTheWaitThenTheCallerGets503WithRetryAfter() throws Exception {
        var engine = new GatedEngine();
        var hasher = new PasswordHasher(engine, factory, 1, 1);
        engine.shut();
        Future<Boolean> first = callers.submit(() -> hasher.matches("Bench-Passw0rd", STORED));
        assertThat(engine.entered.tryAcquire(1, 10, TimeUnit.SECONDS)).isTrue();

        Future<Boolean> second = callers.submit(() -> hasher.matches("Bench-Passw0rd", STORED));
        assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS)).cause()
                .isInstanceOfSatisfying(BusinessException.class, busy -> {
                    assertThat(busy.problem()).isEqualTo(Problem.UNAVAILABLE);
                    assertThat(busy.headers()).containsEntry("Retry-After", "5");
                });
        engine.open();
        assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
        // the refused caller's hash was dropped from the queue, not computed for nobody
        assertThat(hasher.matches("Bench-Passw0rd", STORED)).isTrue();
        assertThat(engine.calls.get()).isEqualTo(2);
    }

    @Test
    void whenTheEngineFailsThenTheCallerGetsItsFailureAndTheThreadsStayUsable() {
        var hasher = new PasswordHasher(new FailingEngine(), factory, 1, 10);
        assertThatThrownBy(() -> hasher.hash("Bench-Passw0rd")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no hash");
        assertThat(hasher.matches("Bench-Passw0rd", STORED)).isTrue();
    }

    @Test
    void whenASettingIsNegativeThenTheHasherRefusesToStartNamingIt() {
        assertThatThrownBy(() -> new PasswordHasher(new GatedEngine(), factory, -1, 10))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("ATRIUM_PASSWORDS_HASH_THREADS");
    }

    @Test
    void whenTheRealEngineHashesOnItsThreadsThenItsHashesVerify() {
        var hasher = PasswordHasher.standalone();
        String hash = hasher.hash("Bench-Passw0rd");
        assertThat(hasher.matches("Bench-Passw0rd", hash)).isTrue();
        assertThat(hasher.matches("Bench-passw0rd", hash)).isFalse();
    }

    /**
     * Answers true when let through; counts who is inside at once and on which threads. Open until {@link #shut()}
     * (the hasher makes its decoy while it starts), which also forgets that first call.
     */
    private static final class GatedEngine implements Argon2Engine {
        final Semaphore entered = new Semaphore(0);
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();
        final AtomicInteger calls = new AtomicInteger();
        final Set<String> threads = Collections.newSetFromMap(new ConcurrentHashMap<>());
        private volatile CountDownLatch gate = new CountDownLatch(0);

        void shut() {
            gate = new CountDownLatch(1);
            entered.drainPermits();
            mostAtOnce.set(0);
            calls.set(0);
            threads.clear();
        }

        void open() {
            gate.countDown();
        }

        @Override
        public String hash(String password) {
            pass();
            return STORED;
        }

        @Override
        public boolean verify(String password, String hash) {
            pass();
            return true;
        }

        private void pass() {
            calls.incrementAndGet();
            threads.add(Thread.currentThread().getName());
            mostAtOnce.accumulateAndGet(inside.incrementAndGet(), Math::max);
            entered.release();
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                inside.decrementAndGet();
            }
        }

        @Override
        public String name() {
            return "gated";
        }
    }

    private static final class FailingEngine implements Argon2Engine {
        @Override
        public String hash(String password) {
            // the decoy made at start passes, so that the hasher starts
            if (password.startsWith("decoy")) {
                return STORED;
            }
            throw new IllegalArgumentException("no hash");
        }

        @Override
        public boolean verify(String password, String hash) {
            return true;
        }

        @Override
        public String name() {
            return "failing";
        }
    }
}
