package dev.atrium.marketplace.control.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.platform.time.MovableClock;
import dev.atrium.sandbox.Executor;
import dev.atrium.sandbox.Limits;
import dev.atrium.sandbox.Network;
import dev.atrium.sandbox.Prepared;
import dev.atrium.sandbox.RunResult;
import dev.atrium.sandbox.RunSpec;
import dev.atrium.sandbox.SandboxCapabilities;
import dev.atrium.sandbox.SandboxRefused;

/**
 * The pool of sandboxes made ahead, on a fake executor whose sandboxes record what happens to them: each is handed to
 * one call at most, a changed spec or agent never gets a stale one, and the budgets, the expiry and the idle sweep
 * hold.
 */
class WarmSandboxesTest {

    private static final Limits LIMITS = Limits.DEFAULTS.withMemoryMb(256).withTimeout(Duration.ofSeconds(30));

    private final UUID agent = UUID.randomUUID();
    private final MovableClock clock = new MovableClock();
    private final FakeExecutor executor = new FakeExecutor();
    private final MarketplaceConfig config = config(8, 16, 4096);
    private final WarmSandboxes pool = new WarmSandboxes(config, executor, clock, Runnable::run);

    @Test
    void whenAVersionIsFirstCalledThenItRunsColdAndNothingIsMadeAhead() {
        assertThat(pool.take(agent, spec("v1"))).isEmpty();
        assertThat(executor.made).isEmpty();
        assertThat(pool.held()).isZero();
    }

    @Test
    void whenItIsCalledAgainThenItRunsColdAndOneSandboxIsMadeAhead() {
        pool.take(agent, spec("v1"));
        assertThat(pool.take(agent, spec("v1"))).isEmpty();
        assertThat(executor.made).hasSize(1);
        assertThat(pool.held()).isEqualTo(1);
    }

    @Test
    void whenTheNextCallComesThenItTakesTheSandboxMadeAheadAndItsReplacementIsMade() {
        warmUp(agent, spec("v1"));
        var first = executor.made.get(0);
        assertThat(pool.take(agent, spec("v1"))).containsSame(first);
        assertThat(executor.made).hasSize(2);
        assertThat(first.closed).isFalse();
        assertThat(pool.counts()).containsExactly(1, 2);
    }

    @Test
    void whenTheTakenSandboxWasStillStartingThenThePoolGrowsUpToItsCap() {
        executor.settled = false;
        warmUp(agent, spec("v1"));
        for (int i = 0; i < 20; i++) {
            assertThat(pool.take(agent, spec("v1"))).isPresent();
        }
        assertThat(pool.held()).isEqualTo(8);
    }

    @Test
    void whenTheAgentsSpecChangesThenItsOldSandboxesAreRemovedAndNeverServed() {
        warmUp(agent, spec("v1"));
        var old = executor.made.get(0);
        var newSecret = new RunSpec(Path.of("/bundles/v1"), List.of("python3", "main.py"), new byte[0],
                Map.of("API_KEY", "rotated"), LIMITS, Network.NONE, false, false, true);
        assertThat(pool.take(agent, newSecret)).isEmpty();
        assertThat(old.closed).isTrue();
        assertThat(pool.take(agent, newSecret)).isEmpty();
        assertThat(pool.take(agent, newSecret)).isPresent().get().isNotSameAs(old);
        assertThat(pool.take(agent, spec("v2"))).isEmpty();
        assertThat(pool.held()).isZero();
    }

    @Test
    void whenAnotherAgentHasTheSameSpecThenItNeverGetsTheFirstAgentsSandboxes() {
        warmUp(agent, spec("v1"));
        UUID other = UUID.randomUUID();
        assertThat(pool.take(other, spec("v1"))).isEmpty();
        assertThat(pool.take(other, spec("v1"))).isEmpty();
        assertThat(executor.made.get(0).closed).isFalse();
    }

    @Test
    void whenTheAgentChangesThenItsSandboxesAreClosed() {
        warmUp(agent, spec("v1"));
        pool.drain(agent);
        assertThat(executor.made.get(0).closed).isTrue();
        assertThat(pool.held()).isZero();
        assertThat(pool.take(agent, spec("v1"))).isEmpty();
    }

    @Test
    void whenTheCountOrMemoryBudgetIsReachedThenCallsRunColdAndNothingMoreIsMade() {
        var byCount = new WarmSandboxes(config(8, 3, 4096), executor, clock, Runnable::run);
        for (int i = 0; i < 5; i++) {
            UUID each = UUID.randomUUID();
            byCount.take(each, spec("v" + i));
            byCount.take(each, spec("v" + i));
        }
        assertThat(byCount.held()).isEqualTo(3);
        var byMemory = new WarmSandboxes(config(8, 16, 600), new FakeExecutor(), clock, Runnable::run);
        for (int i = 0; i < 5; i++) {
            UUID each = UUID.randomUUID();
            byMemory.take(each, spec("v" + i));
            byMemory.take(each, spec("v" + i));
        }
        assertThat(byMemory.held()).as("two of 256 MB fit in 600").isEqualTo(2);
    }

    /**
     * One agent's pool holds the whole budget (it was called a moment ago, so its pool stays for the idle time): an
     * agent called now takes room from it, up to an equal share, and no further, so two busy agents settle at half
     * each instead of taking sandboxes from each other at every call.
     */
    @Test
    void whenTheBudgetIsHeldByAnotherAgentThenANewlyCalledAgentTakesRoomUpToAnEqualShare() {
        var shared = new WarmSandboxes(config(8, 4, 4096), executor, clock, Runnable::run);
        executor.settled = false;
        UUID busy = UUID.randomUUID();
        for (int i = 0; i < 10; i++) {
            shared.take(busy, spec("busy"));
        }
        assertThat(shared.held()).isEqualTo(4);
        int madeForBusy = executor.made.size();

        assertThat(shared.take(agent, spec("v1"))).isEmpty();
        assertThat(shared.take(agent, spec("v1"))).isEmpty();
        assertThat(executor.made).as("one made for the agent called now").hasSize(madeForBusy + 1);
        assertThat(executor.made.subList(0, madeForBusy)).filteredOn(p -> p.closedUnused).hasSize(1);
        for (int i = 0; i < 20; i++) {
            shared.take(agent, spec("v1"));
            shared.take(busy, spec("busy"));
        }
        assertThat(shared.held()).isEqualTo(4);
        int closedUnused = (int) executor.made.stream().filter(p -> p.closedUnused).count();
        assertThat(closedUnused).as("room moved twice, to an equal share, then stayed").isEqualTo(2);
    }

    @Test
    void whenEveryPoolHoldsAnEqualShareThenANewAgentTakesNothing() {
        var shared = new WarmSandboxes(config(8, 2, 4096), executor, clock, Runnable::run);
        UUID one = UUID.randomUUID();
        UUID two = UUID.randomUUID();
        shared.take(one, spec("one"));
        shared.take(one, spec("one"));
        shared.take(two, spec("two"));
        shared.take(two, spec("two"));
        assertThat(shared.take(agent, spec("v1"))).isEmpty();
        assertThat(shared.take(agent, spec("v1"))).isEmpty();
        assertThat(shared.held()).isEqualTo(2);
        assertThat(executor.made).hasSize(2).noneMatch(p -> p.closed);
    }

    /**
     * A pool goes (a takedown, a new version) while its sandbox is still queued to be made: the budget it reserved
     * comes back whole, so after many such the pool still makes sandboxes ahead for other agents.
     */
    @Test
    void whenAPoolGoesBeforeItsSandboxIsMadeThenItsBudgetComesBack() {
        List<Runnable> queued = new ArrayList<>();
        var deferred = new WarmSandboxes(config(8, 16, 600), executor, clock, queued::add);
        for (int i = 0; i < 5; i++) {
            UUID gone = UUID.randomUUID();
            deferred.take(gone, spec("gone"));
            deferred.take(gone, spec("gone"));
            deferred.drain(gone);
            queued.forEach(Runnable::run);
            queued.clear();
        }
        assertThat(deferred.held()).isZero();
        assertThat(deferred.heldMemoryMb()).isZero();
        deferred.take(agent, spec("v1"));
        deferred.take(agent, spec("v1"));
        queued.forEach(Runnable::run);
        assertThat(deferred.held()).as("two of 256 MB still fit in 600").isEqualTo(1);
        assertThat(executor.made).hasSize(1);
    }

    /** The same agent and spec called again after its pool went, before the old pool's sandbox was made. */
    @Test
    void whenAPoolIsMadeAgainBeforeTheOldOnesSandboxIsMadeThenTheNewPoolKeepsItsOwnCount() {
        List<Runnable> queued = new ArrayList<>();
        var deferred = new WarmSandboxes(config(1, 16, 4096), executor, clock, queued::add);
        deferred.take(agent, spec("v1"));
        deferred.take(agent, spec("v1"));
        deferred.drain(agent);
        deferred.take(agent, spec("v1"));
        deferred.take(agent, spec("v1"));
        queued.forEach(Runnable::run);
        queued.clear();
        assertThat(deferred.held()).isEqualTo(1);
        assertThat(executor.made).filteredOn(p -> !p.closed).hasSize(1);
        assertThat(deferred.take(agent, spec("v1"))).isPresent();
        queued.forEach(Runnable::run);
        assertThat(deferred.held()).as("the replacement, within the cap of one").isEqualTo(1);
        assertThat(deferred.heldMemoryMb()).isEqualTo(256);
    }

    @Test
    void whenASandboxWaitedLongerThanItsAgentsTimeoutThenItIsClosedNotServed() {
        warmUp(agent, spec("v1"));
        var old = executor.made.get(0);
        clock.advance(Duration.ofSeconds(31));
        assertThat(pool.take(agent, spec("v1"))).isEmpty();
        assertThat(old.closed).isTrue();
        assertThat(old.ran).isFalse();
    }

    @Test
    void whenAPoolIsNotCalledForItsIdleTimeThenTheSweepRemovesIt() {
        warmUp(agent, spec("v1"));
        clock.advance(Duration.ofSeconds(20));
        pool.sweep();
        assertThat(pool.held()).isEqualTo(1);
        clock.advance(Duration.ofSeconds(41));
        pool.sweep();
        assertThat(pool.held()).isZero();
        assertThat(executor.made.get(0).closed).isTrue();
    }

    @Test
    void whenTurnedOffThenNothingIsMadeAhead() {
        config.sandboxWarmEnabled = false;
        assertThat(pool.take(agent, spec("v1"))).isEmpty();
        assertThat(pool.take(agent, spec("v1"))).isEmpty();
        assertThat(executor.made).isEmpty();
    }

    @Test
    void whenTheSandboxRefusesTheSpecThenThePoolStopsTrying() {
        executor.refuse = true;
        for (int i = 0; i < 5; i++) {
            assertThat(pool.take(agent, spec("v1"))).isEmpty();
        }
        assertThat(executor.attempts).isEqualTo(1);
        assertThat(pool.held()).isZero();
    }

    /**
     * Many callers of one agent at once, the sandboxes made on other threads: no sandbox is handed out twice, none
     * handed out is closed by the pool, and the pool never holds more than its cap.
     */
    @Test
    void whenManyCallersTakeAtOnceThenEachSandboxServesOneCallAtMost() throws Exception {
        ExecutorService background = Executors.newFixedThreadPool(2);
        ExecutorService callers = Executors.newFixedThreadPool(16);
        try {
            var shared = new WarmSandboxes(config(4, 6, 4096), executor, clock, background::execute);
            Set<Prepared> served = Collections.newSetFromMap(new IdentityHashMap<>());
            List<Prepared> twice = new CopyOnWriteArrayList<>();
            var go = new CountDownLatch(1);
            var maxHeld = new java.util.concurrent.atomic.AtomicInteger();
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < 16; c++) {
                done.add(callers.submit(() -> {
                    go.await();
                    for (int i = 0; i < 200; i++) {
                        shared.take(agent, spec("v1")).ifPresent(p -> {
                            synchronized (served) {
                                if (!served.add(p)) {
                                    twice.add(p);
                                }
                            }
                            p.run(new byte[0]);
                        });
                        maxHeld.accumulateAndGet(shared.held(), Math::max);
                    }
                    return null;
                }));
            }
            go.countDown();
            for (var f : done) {
                f.get();
            }
            assertThat(twice).isEmpty();
            assertThat(served).isNotEmpty().allSatisfy(p -> assertThat(((FakePrepared) p).closedUnused).isFalse());
            assertThat(maxHeld.get()).isLessThanOrEqualTo(6);
        } finally {
            callers.shutdownNow();
            background.shutdownNow();
        }
    }

    /**
     * Callers of several agents at once while their pools are drained again and again (takedowns, new versions), the
     * sandboxes made on other threads: once all is quiet and drained, nothing is counted as held, so no interleaving
     * leaks the budgets, and every sandbox made is closed or served.
     */
    @Test
    void whenCallsAndDrainsInterleaveThenTheBudgetsComeBackWhole() throws Exception {
        ExecutorService background = Executors.newFixedThreadPool(2);
        ExecutorService callers = Executors.newFixedThreadPool(9);
        List<UUID> agents = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
        var shared = new WarmSandboxes(config(4, 6, 1024), executor, clock, background::execute);
        try {
            var go = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < 8; c++) {
                UUID mine = agents.get(c % agents.size());
                String version = "v" + (c % 2);
                done.add(callers.submit(() -> {
                    go.await();
                    for (int i = 0; i < 300; i++) {
                        shared.take(mine, spec(version)).ifPresent(p -> p.run(new byte[0]));
                    }
                    return null;
                }));
            }
            done.add(callers.submit(() -> {
                go.await();
                for (int i = 0; i < 300; i++) {
                    shared.drain(agents.get(i % agents.size()));
                    Thread.yield();
                }
                return null;
            }));
            go.countDown();
            for (var f : done) {
                f.get();
            }
            agents.forEach(shared::drain);
        } finally {
            callers.shutdownNow();
            background.shutdown();
            assertThat(background.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        }
        assertThat(shared.held()).isZero();
        assertThat(shared.heldMemoryMb()).isZero();
        assertThat(executor.made).isNotEmpty().allSatisfy(p -> assertThat(p.closed || p.ran).isTrue());
    }

    /**
     * The attacker's agent spins before it reads its input, called again and again: its sandboxes are closed once
     * they pass the start's CPU, and its pool makes nothing more while it is called, so the CPU no call pays for
     * stays bounded by one sandbox's start.
     */
    @Test
    void whenTheAgentWorksBeforeItsInputThenItsSandboxesAreClosedAndItsCallsRunCold() {
        warmUp(agent, spec("v1"));
        var spinning = executor.made.get(0);
        spinning.cpu = Duration.ofMillis(1001);
        pool.sweep();
        assertThat(spinning.closed).isTrue();
        assertThat(spinning.ran).isFalse();
        assertThat(pool.held()).isZero();
        for (int i = 0; i < 50; i++) {
            clock.advance(Duration.ofSeconds(1));
            assertThat(pool.take(agent, spec("v1"))).isEmpty();
            pool.sweep();
        }
        assertThat(executor.made).as("nothing made ahead while it is called").hasSize(1);
        var honest = UUID.randomUUID();
        warmUp(honest, spec("v1"));
        assertThat(pool.take(honest, spec("v1"))).as("other agents are still served warm").isPresent();
    }

    /**
     * The sweep read a sandbox's CPU just as a call took it and ran its input: that CPU is the call's, so the agent is
     * not taken for a spinner and its pool keeps making sandboxes ahead.
     */
    @Test
    void whenACallTakesTheSandboxWhileTheSweepReadsItsCpuThenThatCpuIsNotHeldAgainstTheAgent() {
        warmUp(agent, spec("v1"));
        var racing = executor.made.get(0);
        racing.onCpuRead = () -> {
            racing.onCpuRead = () -> { };
            assertThat(pool.take(agent, spec("v1"))).containsSame(racing);
            racing.run(new byte[0]);
            racing.cpu = Duration.ofSeconds(5);
        };
        pool.sweep();
        assertThat(executor.made).as("its replacement").hasSize(2);
        assertThat(executor.made.get(1).closed).isFalse();
        assertThat(pool.take(agent, spec("v1"))).containsSame(executor.made.get(1));
    }

    @Test
    void whenTheAgentsStartStaysWithinItsCpuThenItsSandboxesWait() {
        warmUp(agent, spec("v1"));
        executor.made.get(0).cpu = Duration.ofMillis(1000);
        pool.sweep();
        assertThat(pool.take(agent, spec("v1"))).containsSame(executor.made.get(0));
    }

    @Test
    void whenAColdPoolWasIdleForItsIdleTimeThenItsAgentIsMadeAheadAgain() {
        warmUp(agent, spec("v1"));
        executor.made.get(0).cpu = Duration.ofSeconds(5);
        pool.sweep();
        clock.advance(Duration.ofSeconds(61));
        pool.sweep();
        warmUp(agent, spec("v1"));
        assertThat(pool.take(agent, spec("v1"))).isPresent();
    }

    /** The first two calls of a spec: both run cold, the second has one sandbox made ahead. */
    private void warmUp(UUID agentId, RunSpec spec) {
        assertThat(pool.take(agentId, spec)).isEmpty();
        assertThat(pool.take(agentId, spec)).isEmpty();
    }

    private static RunSpec spec(String version) {
        return new RunSpec(Path.of("/bundles/" + version), List.of("python3", "main.py"), new byte[0],
                Map.of("API_KEY", "one"), LIMITS, Network.NONE, false, false, true);
    }

    private static MarketplaceConfig config(int perVersion, int max, int memoryMb) {
        var c = new MarketplaceConfig();
        c.sandboxWarmEnabled = true;
        c.sandboxWarmPerVersion = perVersion;
        c.sandboxWarmMax = max;
        c.sandboxWarmMemoryMb = memoryMb;
        c.sandboxWarmIdleSeconds = 60;
        c.sandboxWarmStartCpuMs = 1000;
        return c;
    }

    private static final class FakeExecutor implements Executor {
        private final List<FakePrepared> made = new CopyOnWriteArrayList<>();
        private volatile boolean settled = true;
        private volatile boolean refuse;
        private volatile int attempts;

        @Override
        public SandboxCapabilities capabilities() {
            throw new UnsupportedOperationException();
        }

        @Override
        public RunResult run(RunSpec spec) {
            throw new UnsupportedOperationException("the pool never runs cold itself");
        }

        @Override
        public Prepared prepare(RunSpec spec) {
            attempts++;
            if (refuse) {
                throw new SandboxRefused("no cgroups here");
            }
            var p = new FakePrepared(settled);
            made.add(p);
            return p;
        }
    }

    private static final class FakePrepared implements Prepared {
        private final boolean settledState;
        private final AtomicBoolean used = new AtomicBoolean();
        private volatile boolean closed;
        private volatile boolean closedUnused;
        private volatile boolean ran;
        private volatile Duration cpu = Duration.ZERO;
        private volatile Runnable onCpuRead = () -> { };

        FakePrepared(boolean settled) {
            this.settledState = settled;
        }

        @Override
        public boolean waiting() {
            return !used.get();
        }

        @Override
        public boolean settled() {
            return settledState;
        }

        @Override
        public Duration cpuTime() {
            onCpuRead.run();
            return cpu;
        }

        @Override
        public RunResult run(byte[] stdin) {
            if (!used.compareAndSet(false, true)) {
                throw new IllegalStateException("ran twice");
            }
            ran = true;
            return null;
        }

        @Override
        public void close() {
            closedUnused |= !ran;
            closed = true;
            used.set(true);
        }
    }
}
