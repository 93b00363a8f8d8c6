package dev.atrium.marketplace.control.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;
import org.eclipse.microprofile.metrics.MetricRegistry;

import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.platform.ServerResources;
import dev.atrium.sandbox.Executor;
import dev.atrium.sandbox.Prepared;
import dev.atrium.sandbox.RunSpec;
import dev.atrium.sandbox.SandboxRefused;

/**
 * Sandboxes made ahead of the calls of agents that are called (docs/decisions/marketplace.md, "Warm sandboxes"):
 * each is a whole sandbox of its own, namespaces, cgroups and mounts in place and the agent's process started and
 * waiting for its input, handed to exactly one call and removed after it. Nothing passes between two calls.
 * <ul>
 * <li>A pool is kept per agent and run spec (its version's bundle, command, environment with its secrets, limits,
 * network), so a sandbox always runs what a cold run would. A call with another spec for the same agent (a new
 * version, another trust level, a changed secret) removes that agent's other pools; so does a change of the agent
 * ({@link #drain(UUID)}: takedown, suspension, a version activated).</li>
 * <li>The first call of a spec runs cold and makes nothing ahead, so an agent called once costs nothing more. A
 * later call that finds the pool empty, or takes a sandbox whose agent is still starting, lets the pool grow by one,
 * up to {@code atrium.sandbox.warm.per-version}; each call taken from the pool starts its replacement.</li>
 * <li>All pools together hold at most {@code atrium.sandbox.warm.max} sandboxes, whose memory limits add up to at
 * most {@code atrium.sandbox.warm.memory-mb}. Where they are spent, a pool called now takes room from the pool
 * holding the most, up to an equal share; past that, calls run cold.</li>
 * <li>A sandbox waits at most its agent's own timeout (what it does meanwhile is bounded as a cold run is); a pool
 * not called for {@code atrium.sandbox.warm.idle-seconds} is removed.</li>
 * <li>A waiting agent must wait: one that spends more than {@code atrium.sandbox.warm.start-cpu-ms} of CPU before its
 * input has its pool's sandboxes closed, and its calls run cold until the pool goes idle. Otherwise an agent busy
 * before its input would burn CPU no call pays for, in as many sandboxes as its pool may hold.</li>
 * </ul>
 * Runs that get a per-call token (agents with dependencies) or a network audit are never made ahead: the caller runs
 * them cold.
 */
@ApplicationScoped
public class WarmSandboxes {

    private static final Logger LOG = Logger.getLogger(WarmSandboxes.class.getName());
    private static final Duration SWEEP_EVERY = Duration.ofSeconds(1);

    /** A pool's identity: the agent and everything of its run spec but the input. */
    record Key(UUID agentId, List<Object> spec) {

        static Key of(UUID agentId, RunSpec spec) {
            return new Key(agentId, List.of(spec.bundleDir(), spec.command(), spec.environment(), spec.limits(),
                    spec.network(), spec.scratch(), spec.auditNetwork(), spec.untrusted(), spec.rootFileSystem(),
                    spec.workingDir()));
        }
    }

    private record Parked(Prepared sandbox, Instant made, long memoryMb) {
    }

    private static final class Pool {
        private final UUID agentId;
        private final RunSpec spec;
        private final Deque<Parked> ready = new ArrayDeque<>();
        private int preparing;
        private int target;
        /** Nothing more is made: the sandbox refused the spec, or the agent works before its input. */
        private boolean cold;
        private Instant lastCall;

        private Pool(UUID agentId, RunSpec spec, Instant now) {
            this.agentId = agentId;
            this.spec = spec;
            this.lastCall = now;
        }
    }

    @Inject
    @ConfigProperties
    MarketplaceConfig config;

    @Inject
    Executor sandbox;

    @Inject
    Clock clock;

    @Inject
    MetricRegistry metrics;

    @Resource(lookup = ServerResources.WORKERS)
    ManagedThreadFactory threadFactory;

    private final Object lock = new Object();
    private final Map<Key, Pool> pools = new HashMap<>();
    private int held;
    private long heldMemoryMb;
    private long hits;
    private long misses;
    private Consumer<Runnable> background;
    private ScheduledThreadPoolExecutor sweeper;
    private ThreadPoolExecutor threads;

    public WarmSandboxes() {
    }

    /**
     * A pool whose sandboxes are made and removed by {@code background} (tests run it on the calling thread), swept by
     * calls to {@link #sweep()}.
     */
    WarmSandboxes(MarketplaceConfig config, Executor sandbox, Clock clock, Consumer<Runnable> background) {
        this.config = config;
        this.sandbox = sandbox;
        this.clock = clock;
        this.background = background;
    }

    @PostConstruct
    void start() {
        ThreadFactory factory = threadFactory;
        // as many starts at once as there are cores: each is mostly the agent's own start-up, on the CPU
        int cores = Runtime.getRuntime().availableProcessors();
        threads = new ThreadPoolExecutor(cores, cores, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory);
        threads.allowCoreThreadTimeOut(true);
        background = threads::execute;
        sweeper = new ScheduledThreadPoolExecutor(1, factory);
        sweeper.scheduleWithFixedDelay(this::sweepQuietly, SWEEP_EVERY.toMillis(), SWEEP_EVERY.toMillis(),
                TimeUnit.MILLISECONDS);
        metrics.gauge("atrium_sandbox_warm", this, WarmSandboxes::held);
        metrics.gauge("atrium_sandbox_warm_memory_mb", this, WarmSandboxes::heldMemoryMb);
        metrics.gauge("atrium_sandbox_warm_hits", this, w -> w.counts()[0]);
        metrics.gauge("atrium_sandbox_warm_misses", this, w -> w.counts()[1]);
    }

    @PreDestroy
    void stop() {
        sweeper.shutdownNow();
        threads.shutdownNow();
        drainAll();
    }

    /**
     * A sandbox made ahead for {@code spec} of the agent, to run once with the call's input; empty when none is ready
     * (the caller runs cold). Either way the pool is topped up in the background.
     */
    public Optional<Prepared> take(UUID agentId, RunSpec spec) {
        if (!config.sandboxWarmEnabled) {
            return Optional.empty();
        }
        Key key = Key.of(agentId, spec);
        Instant now = clock.instant();
        List<Parked> stale = new ArrayList<>();
        Prepared taken = null;
        boolean known;
        synchronized (lock) {
            // another spec of this agent (a new version, trust level, limits or secret): its sandboxes are stale
            pools.entrySet().removeIf(e -> e.getKey().agentId().equals(agentId) && !e.getKey().equals(key)
                    && release(e.getValue(), stale));
            Pool pool = pools.get(key);
            known = pool != null;
            if (pool == null) {
                pool = new Pool(agentId, spec, now);
                pools.put(key, pool);
            }
            pool.lastCall = now;
            while (taken == null && !pool.ready.isEmpty()) {
                Parked parked = pool.ready.pollFirst();
                unhold(parked);
                if (expired(parked, pool.spec, now)) {
                    stale.add(parked);
                } else {
                    taken = parked.sandbox();
                }
            }
            if (taken == null) {
                misses++;
            } else {
                hits++;
            }
        }
        // read outside the lock: it looks at the sandbox's processes
        boolean tooFew = known && (taken == null || !taken.settled());
        int start = 0;
        Pool pool;
        synchronized (lock) {
            pool = pools.get(key);
            if (pool != null) {
                if (tooFew) {
                    pool.target = Math.min(Math.max(1, config.sandboxWarmPerVersion), pool.target + 1);
                }
                start = reserve(pool, stale);
            }
        }
        close(stale);
        for (int i = 0; i < start; i++) {
            background.accept(() -> prepareOne(key, pool));
        }
        return Optional.ofNullable(taken);
    }

    /** Removes the agent's sandboxes made ahead (its listing changed: a takedown, a suspension, a new version). */
    public void drain(UUID agentId) {
        List<Parked> stale = new ArrayList<>();
        synchronized (lock) {
            pools.entrySet().removeIf(e -> e.getKey().agentId().equals(agentId) && release(e.getValue(), stale));
        }
        close(stale);
    }

    /**
     * Removes expired sandboxes, the pools not called for the idle time, and the sandboxes of agents that spent more
     * than their start's CPU while waiting (their pools then make nothing more).
     */
    void sweep() {
        Instant now = clock.instant();
        Duration idle = Duration.ofSeconds(Math.max(1, config.sandboxWarmIdleSeconds));
        List<Parked> stale = new ArrayList<>();
        Map<Parked, Pool> waiting = new IdentityHashMap<>();
        synchronized (lock) {
            pools.values().removeIf(pool -> pool.lastCall.plus(idle).isBefore(now) && release(pool, stale));
            for (Pool pool : pools.values()) {
                pool.ready.removeIf(p -> expired(p, pool.spec, now) && stale.add(p) && unhold(p));
                pool.ready.forEach(p -> waiting.put(p, pool));
            }
        }
        // read outside the lock: it reads the sandboxes' cgroups
        Duration startCpu = Duration.ofMillis(Math.max(1, config.sandboxWarmStartCpuMs));
        waiting.entrySet().removeIf(e -> e.getKey().sandbox().cpuTime().compareTo(startCpu) <= 0);
        synchronized (lock) {
            // a sandbox taken by a call since is working on its input: its CPU is that call's, not a spinner's
            waiting.entrySet().removeIf(e -> !e.getValue().ready.contains(e.getKey()));
            for (Pool pool : new HashSet<>(waiting.values())) {
                if (!pool.cold) {
                    pool.cold = true;
                    LOG.warning(() -> "Warm sandboxes: agent " + pool.agentId + " used over " + startCpu.toMillis()
                            + " ms of CPU before its input; its calls run cold");
                }
                release(pool, stale);
            }
        }
        close(stale);
    }

    /** The sandboxes made ahead and being made, all pools together. */
    public int held() {
        synchronized (lock) {
            return held;
        }
    }

    /** The memory limits of those sandboxes, added up: what they count against the memory budget. */
    public long heldMemoryMb() {
        synchronized (lock) {
            return heldMemoryMb;
        }
    }

    /** Calls served by a sandbox made ahead, and calls that found none. */
    long[] counts() {
        synchronized (lock) {
            return new long[] {hits, misses};
        }
    }

    private void sweepQuietly() {
        try {
            sweep();
        } catch (RuntimeException e) {
            LOG.warning(() -> "Warm sandboxes: the sweep failed: " + e);
        }
    }

    private void drainAll() {
        List<Parked> stale = new ArrayList<>();
        synchronized (lock) {
            pools.values().removeIf(pool -> release(pool, stale));
        }
        for (Parked p : stale) {
            p.sandbox().close();
        }
    }

    /**
     * How many sandboxes to start for the pool now, within its target and the budgets, counted as held at once. Where
     * the budgets are spent, the pool may take room from the pool waiting with the most, while that one holds at least
     * two more than it (its newest sandbox goes to {@code stale}): an agent called now is not left cold for the idle
     * time of pools made earlier, and room only moves from larger to smaller pools, so it settles instead of churning.
     */
    private int reserve(Pool pool, List<Parked> stale) {
        long memoryMb = memoryMb(pool.spec);
        int start = 0;
        while (!pool.cold && pool.ready.size() + pool.preparing < pool.target) {
            if (held >= config.sandboxWarmMax || heldMemoryMb + memoryMb > config.sandboxWarmMemoryMb) {
                Pool richest = richestBut(pool);
                if (richest == null) {
                    break;
                }
                Parked evicted = richest.ready.pollLast();
                unhold(evicted);
                stale.add(evicted);
                continue;
            }
            pool.preparing++;
            held++;
            heldMemoryMb += memoryMb;
            start++;
        }
        return start;
    }

    /** The other pool with the most sandboxes waiting, if it holds at least two more than {@code pool}; else null. */
    private Pool richestBut(Pool pool) {
        int mine = pool.ready.size() + pool.preparing;
        Pool richest = null;
        for (Pool other : pools.values()) {
            if (other != pool && other.ready.size() >= mine + 2
                    && (richest == null || other.ready.size() > richest.ready.size())) {
                richest = other;
            }
        }
        return richest;
    }

    /**
     * Makes one sandbox reserved for {@code pool}. What was reserved is given back to that pool's count and the
     * budgets even when the pool went meanwhile (or another took its key), so neither leaks.
     */
    private void prepareOne(Key key, Pool pool) {
        boolean current;
        synchronized (lock) {
            current = pools.get(key) == pool;
        }
        Prepared made = null;
        boolean refused = false;
        if (current) {
            try {
                made = sandbox.prepare(pool.spec);
            } catch (SandboxRefused | IllegalArgumentException e) {
                // the cold run of the next call gives the caller the reason; here it is logged once per pool
                refused = true;
                LOG.warning(() -> "Warm sandboxes: agent " + key.agentId() + " is run cold: " + e.getMessage());
            } catch (RuntimeException e) {
                LOG.warning(() -> "Warm sandboxes: a sandbox for agent " + key.agentId() + " failed: " + e);
            }
        }
        long memoryMb = memoryMb(pool.spec);
        boolean kept = false;
        synchronized (lock) {
            held--;
            heldMemoryMb -= memoryMb;
            pool.preparing--;
            pool.cold |= refused;
            if (made != null && !pool.cold && pools.get(key) == pool) {
                pool.ready.addLast(new Parked(made, clock.instant(), memoryMb));
                held++;
                heldMemoryMb += memoryMb;
                kept = true;
            }
        }
        if (made != null && !kept) {
            // the pool went (drained, idle, replaced) or turned cold while this sandbox was made
            made.close();
        }
    }

    /** Moves the pool's sandboxes to {@code stale}; true, for use in {@code removeIf}. */
    private boolean release(Pool pool, List<Parked> stale) {
        for (Parked p : pool.ready) {
            unhold(p);
            stale.add(p);
        }
        pool.ready.clear();
        // sandboxes still being made are released by prepareOne, which finds their pool gone
        return true;
    }

    private boolean unhold(Parked parked) {
        held--;
        heldMemoryMb -= parked.memoryMb();
        return true;
    }

    /** A sandbox waits no longer than its agent's own timeout: what it does meanwhile is bounded as a cold run's. */
    private static boolean expired(Parked parked, RunSpec spec, Instant now) {
        return parked.made().plus(spec.limits().timeout()).isBefore(now);
    }

    private void close(List<Parked> stale) {
        for (Parked p : stale) {
            background.accept(p.sandbox()::close);
        }
    }

    private static long memoryMb(RunSpec spec) {
        return Math.max(1, spec.limits().memoryBytes() / (1024 * 1024));
    }
}
