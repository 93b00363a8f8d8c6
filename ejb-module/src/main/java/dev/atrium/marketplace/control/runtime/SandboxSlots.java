package dev.atrium.marketplace.control.runtime;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;
import org.eclipse.microprofile.metrics.MetricRegistry;

import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * The bounded pool of sandbox slots of this instance ({@code atrium.sandbox.slots}, default twice the cores): one
 * slot per running agent, shared fairly.
 * <ul>
 * <li>{@code atrium.sandbox.check-slots} (1) slots are kept for the pre-listing checks: invocations never hold more
 * than the rest, so a developer's submission runs while invocations fill their share. Checks take any free slot.
 * A pool of one slot keeps none.</li>
 * <li>One user's invocations hold at most {@code atrium.sandbox.per-caller-slots} slots, one agent's at most
 * {@code atrium.sandbox.per-agent-slots} (0, the default: half the slots, at least one). A call past either cap is
 * refused at once (503, no waiting: waiting would only queue the hog's own calls ahead of everyone else's); calls
 * waiting for a slot count against both caps too.</li>
 * <li>A call an agent's run makes to a dependency is the same user, but it counts against the dependency's agent cap
 * only: the chain's outermost call holds the user's share, so a run can never wait for its own user's cap while
 * holding it (the chain itself never repeats an agent, so no run waits for its own agent's cap either).</li>
 * <li>A call within the caps waits up to {@code atrium.sandbox.wait-seconds} (5) for a free slot, in arrival order,
 * then is answered 503.</li>
 * </ul>
 * Every refusal is 503 with {@code Retry-After} and a message naming the reason.
 */
@ApplicationScoped
public class SandboxSlots {

    /** Who a slot is for: a user's invocation of an agent ({@code nested} when made from within a run), or a check. */
    public record Claim(Long userId, UUID agentId, boolean nested) {

        /** A run of the pre-listing checks. */
        public static final Claim CHECK = new Claim(null, null, false);

        public static Claim invocation(long userId, UUID agentId, boolean nested) {
            return new Claim(userId, agentId, nested);
        }

        boolean check() {
            return agentId == null;
        }

        boolean countsForCaller() {
            return !check() && !nested;
        }
    }

    @Inject
    @ConfigProperties
    MarketplaceConfig config;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Calls waiting for a slot, oldest first. */
    private final Deque<Claim> waiting = new ArrayDeque<>();
    /** Running and waiting calls per user (outermost calls only) and per agent. */
    private final Map<Long, Integer> byCaller = new HashMap<>();
    private final Map<UUID, Integer> byAgent = new HashMap<>();
    private int running;
    private int invocations;

    private int size;
    private int checkSlots;
    private int perCaller;
    private int perAgent;
    private Duration wait;

    public SandboxSlots() {
    }

    /** A pool of {@code size} slots with the default caps whose callers wait up to {@code wait} (for tests). */
    public SandboxSlots(int size, Duration wait) {
        this(size, 1, 0, 0, wait);
    }

    /** A pool with its reserved check slots and caps, 0 for the defaults (for tests). */
    SandboxSlots(int size, int checkSlots, int perCaller, int perAgent, Duration wait) {
        configure(size, checkSlots, perCaller, perAgent, wait);
    }

    @Inject
    MetricRegistry metrics;

    @PostConstruct
    void init() {
        configure(config.sandboxSlots > 0 ? config.sandboxSlots : 2 * Runtime.getRuntime().availableProcessors(),
                config.sandboxCheckSlots, config.sandboxPerCallerSlots, config.sandboxPerAgentSlots,
                Duration.ofSeconds(Math.max(0, config.sandboxWaitSeconds)));
        metrics.gauge("atrium_sandbox_slots", this, SandboxSlots::size);
        metrics.gauge("atrium_sandbox_slots_busy", this, slots -> slots.size() - slots.free());
        metrics.gauge("atrium_sandbox_slots_waiting", this, SandboxSlots::waiting);
    }

    /** Created with the application, so the slot gauges show before the first invocation. */
    void started(@Observes @Initialized(ApplicationScoped.class) Object event) {
        // the observer's only work is to have the bean, and so its gauges, made now
    }

    private void configure(int size, int checkSlots, int perCaller, int perAgent, Duration wait) {
        this.size = Math.max(1, size);
        this.checkSlots = Math.max(0, Math.min(checkSlots, this.size - 1));
        int half = Math.max(1, this.size / 2);
        this.perCaller = perCaller > 0 ? perCaller : half;
        this.perAgent = perAgent > 0 ? perAgent : half;
        this.wait = wait.isNegative() ? Duration.ZERO : wait;
    }

    /** Runs {@code work} holding a slot for {@code claim}, or 503 with {@code Retry-After} (see the class). */
    public <T> T run(Claim claim, Supplier<T> work) {
        // one call's place in the pool, told apart by identity: two calls may carry equal claims (CHECK)
        var ticket = new Claim(claim.userId(), claim.agentId(), claim.nested());
        admit(ticket);
        try {
            return work.get();
        } finally {
            leave(ticket);
        }
    }

    private void admit(Claim ticket) {
        lock.lock();
        try {
            if (ticket.countsForCaller() && count(byCaller, ticket.userId()) >= perCaller) {
                throw refused("Too many of your calls are running at once", "At most " + perCaller + " of one "
                        + "user's calls run at once on this instance; this one was not queued");
            }
            if (!ticket.check() && count(byAgent, ticket.agentId()) >= perAgent) {
                throw refused("This agent is running as many calls as it may at once", "At most " + perAgent
                        + " calls of one agent run at once on this instance; this one was not queued");
            }
            counted(ticket, 1);
            waiting.addLast(ticket);
            long nanos = wait.toNanos();
            boolean admitted = false;
            try {
                while (firstEligible() != ticket) {
                    if (nanos <= 0) {
                        throw busy();
                    }
                    nanos = changed.awaitNanos(nanos);
                }
                admitted = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw busy();
            } finally {
                waiting.removeIf(t -> t == ticket);
                if (admitted) {
                    running++;
                    if (!ticket.check()) {
                        invocations++;
                    }
                } else {
                    counted(ticket, -1);
                }
                // the next in line may fit too (several slots freed), or this one no longer blocks it
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    private void leave(Claim ticket) {
        lock.lock();
        try {
            running--;
            if (!ticket.check()) {
                invocations--;
            }
            counted(ticket, -1);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The oldest waiting call a free slot may take now: checks any slot, invocations all but the checks' own. */
    private Claim firstEligible() {
        if (running >= size) {
            return null;
        }
        boolean invocationFits = invocations < size - checkSlots;
        for (Claim t : waiting) {
            if (t.check() || invocationFits) {
                return t;
            }
        }
        return null;
    }

    private void counted(Claim ticket, int delta) {
        if (ticket.countsForCaller()) {
            byCaller.merge(ticket.userId(), delta, (a, b) -> a + b == 0 ? null : a + b);
        }
        if (!ticket.check()) {
            byAgent.merge(ticket.agentId(), delta, (a, b) -> a + b == 0 ? null : a + b);
        }
    }

    private static <K> int count(Map<K, Integer> counts, K key) {
        return counts.getOrDefault(key, 0);
    }

    private long retryAfter() {
        return Math.max(1, wait.toSeconds());
    }

    private BusinessException refused(String message, String details) {
        return new BusinessException(Problem.UNAVAILABLE, message, details + "; retry in " + retryAfter() + " s",
                Map.of("Retry-After", Long.toString(retryAfter())));
    }

    private BusinessException busy() {
        return new BusinessException(Problem.UNAVAILABLE, "All sandbox slots are busy",
                "Every one of this instance's sandbox slots open to this call stayed busy for " + wait.toSeconds()
                        + " s; retry in " + retryAfter() + " s", Map.of("Retry-After", Long.toString(retryAfter())));
    }

    public int size() {
        return size;
    }

    /** Slots no run holds. */
    public int free() {
        lock.lock();
        try {
            return size - running;
        } finally {
            lock.unlock();
        }
    }

    /** Calls waiting for a slot (for tests). */
    int waiting() {
        lock.lock();
        try {
            return waiting.size();
        } finally {
            lock.unlock();
        }
    }

    /** Slots kept for the pre-listing checks. */
    public int checkSlots() {
        return checkSlots;
    }

    public int perCaller() {
        return perCaller;
    }

    public int perAgent() {
        return perAgent;
    }
}
