package dev.atrium.marketplace.control.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.atrium.marketplace.control.runtime.SandboxSlots.Claim;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

class SandboxSlotsTest {

    /** Long enough that a call which waited instead of failing fast would make its test time out. */
    private static final Duration FOREVER = Duration.ofMinutes(10);

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void stop() {
        release.countDown();
        threads.shutdownNow();
    }

    @Test
    void whenEveryInvocationSlotIsBusyPastTheWaitThenTheCallerGets503NamingTheBusyPool() throws Exception {
        var slots = new SandboxSlots(3, 1, 0, 0, Duration.ofMillis(100));
        hold(slots, call(1, agent()));
        hold(slots, call(2, agent()));

        assertThatThrownBy(() -> slots.run(call(3, agent()), () -> "never"))
                .isInstanceOfSatisfying(BusinessException.class, e -> {
                    assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE);
                    assertThat(e.getMessage()).isEqualTo("All sandbox slots are busy");
                    assertThat(e.headers()).containsKey("Retry-After");
                });
        assertThat(slots.free()).as("the check slot").isEqualTo(1);
        assertThat(slots.waiting()).isZero();
    }

    @Test
    void whenASlotFreesWithinTheWaitThenTheWaitingCallerRuns() throws Exception {
        var slots = new SandboxSlots(2, 1, 0, 0, FOREVER);
        var first = hold(slots, call(1, agent()));
        Future<String> waiting = threads.submit(() -> slots.run(call(2, agent()), () -> "ran"));
        awaitTrue(() -> slots.waiting() == 1);

        first.release().countDown();

        assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo("ran");
        assertThat(slots.free()).isEqualTo(2);
    }

    @Test
    void whenOneCallerHoldsItsShareThenItsNextCallIsRefusedAtOnceAndAnotherCallerStillRuns() throws Exception {
        var slots = new SandboxSlots(4, FOREVER);
        assertThat(slots.perCaller()).as("half the slots").isEqualTo(2);
        hold(slots, call(1, agent()));
        hold(slots, call(1, agent()));

        Future<String> third = threads.submit(() -> slots.run(call(1, agent()), () -> "never"));

        assertThatThrownBy(() -> third.get(10, TimeUnit.SECONDS)).as("refused without waiting")
                .hasCauseInstanceOf(BusinessException.class)
                .cause().satisfies(e -> {
                    var refused = (BusinessException) e;
                    assertThat(refused.problem()).isEqualTo(Problem.UNAVAILABLE);
                    assertThat(refused.getMessage()).isEqualTo("Too many of your calls are running at once");
                    assertThat(refused.details()).contains("At most 2 of one user's calls");
                    assertThat(refused.headers()).containsKey("Retry-After");
                });
        assertThat(slots.run(call(2, agent()), () -> "ran")).isEqualTo("ran");
    }

    @Test
    void whenOneAgentHoldsItsShareThenAnotherCallersCallOfItIsRefusedNamingTheAgent() throws Exception {
        var slots = new SandboxSlots(4, FOREVER);
        UUID busy = agent();
        hold(slots, call(1, busy));
        hold(slots, call(2, busy));

        Future<String> third = threads.submit(() -> slots.run(call(3, busy), () -> "never"));

        assertThatThrownBy(() -> third.get(10, TimeUnit.SECONDS)).cause()
                .isInstanceOfSatisfying(BusinessException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("This agent is running as many calls as it may at once");
                    assertThat(e.headers()).containsKey("Retry-After");
                });
        assertThat(slots.run(call(3, agent()), () -> "ran")).as("the caller's other agents").isEqualTo("ran");
    }

    @Test
    void whenInvocationsFillTheirShareThenAChecksRunsInTheKeptSlotAndNoInvocationTakesIt() throws Exception {
        var slots = new SandboxSlots(4, 1, 0, 0, Duration.ofMillis(100));
        UUID a = agent();
        hold(slots, call(1, a));
        hold(slots, call(2, a));
        hold(slots, call(3, agent()));

        assertThatThrownBy(() -> slots.run(call(4, agent()), () -> "never"))
                .hasMessage("All sandbox slots are busy");
        assertThat(slots.run(Claim.CHECK, () -> "checked")).isEqualTo("checked");
    }

    @Test
    void whenNoInvocationRunsThenChecksMayTakeEverySlot() throws Exception {
        var slots = new SandboxSlots(3, 1, 0, 0, Duration.ofMillis(100));
        hold(slots, Claim.CHECK);
        hold(slots, Claim.CHECK);
        hold(slots, Claim.CHECK);

        assertThat(slots.free()).isZero();
        assertThatThrownBy(() -> slots.run(Claim.CHECK, () -> "never")).hasMessage("All sandbox slots are busy");
    }

    @Test
    void whenARunCallsItsDependenciesThenTheUsersCapDoesNotCountThemAndTheChainCannotBlockItself() {
        var slots = new SandboxSlots(4, 1, 1, 1, FOREVER);
        UUID outer = agent();
        UUID middle = agent();
        UUID inner = agent();

        String answer = slots.run(call(1, outer), () -> {
            assertThatThrownBy(() -> slots.run(call(1, agent()), () -> "never")).as("a second call of the user")
                    .hasMessage("Too many of your calls are running at once");
            return slots.run(nested(1, middle), () -> slots.run(nested(1, inner), () -> "deep"));
        });

        assertThat(answer).isEqualTo("deep");
        assertThat(slots.free()).isEqualTo(4);
    }

    @Test
    void whenADependencyIsAtItsAgentsCapThenTheNestedCallIsRefusedAtOnce() throws Exception {
        var slots = new SandboxSlots(4, 1, 1, 1, FOREVER);
        UUID dependency = agent();
        hold(slots, call(2, dependency));

        Future<String> chain = threads.submit(() -> slots.run(call(1, agent()),
                () -> slots.run(nested(1, dependency), () -> "never")));

        assertThatThrownBy(() -> chain.get(10, TimeUnit.SECONDS)).cause()
                .hasMessage("This agent is running as many calls as it may at once");
        assertThat(slots.free()).isEqualTo(3);
    }

    @Test
    void whenAWaitingCallGivesUpThenItNoLongerCountsAgainstTheCallersCap() throws Exception {
        var slots = new SandboxSlots(2, 1, 2, 0, Duration.ofMillis(50));
        hold(slots, call(1, agent()));

        assertThatThrownBy(() -> slots.run(call(1, agent()), () -> "never")).hasMessage("All sandbox slots are busy");
        assertThatThrownBy(() -> slots.run(call(1, agent()), () -> "never")).as("not the caller's cap again")
                .hasMessage("All sandbox slots are busy");
        assertThat(slots.waiting()).isZero();
    }

    @Test
    void whenCallersWaitThenTheyRunInArrivalOrder() throws Exception {
        var slots = new SandboxSlots(2, 1, 0, 0, FOREVER);
        var first = hold(slots, call(1, agent()));
        var order = new CopyOnWriteArrayList<String>();
        var a = threads.submit(() -> slots.run(call(2, agent()), () -> order.add("a")));
        awaitTrue(() -> slots.waiting() == 1);
        var b = threads.submit(() -> slots.run(call(3, agent()), () -> order.add("b")));
        awaitTrue(() -> slots.waiting() == 2);

        first.release().countDown();
        a.get(10, TimeUnit.SECONDS);
        b.get(10, TimeUnit.SECONDS);

        assertThat(order).containsExactly("a", "b");
    }

    @Test
    void whenACheckWaitsBehindAnInvocationThatCannotRunThenTheCheckTakesTheFreedSlot() throws Exception {
        var slots = new SandboxSlots(2, 1, 0, 0, FOREVER);
        hold(slots, call(1, agent()));
        var check = hold(slots, Claim.CHECK);
        var invocation = threads.submit(() -> slots.run(call(2, agent()), () -> "invoked"));
        awaitTrue(() -> slots.waiting() == 1);
        var nextCheck = threads.submit(() -> slots.run(Claim.CHECK, () -> "checked"));
        awaitTrue(() -> slots.waiting() == 2);

        check.release().countDown();

        assertThat(nextCheck.get(10, TimeUnit.SECONDS)).isEqualTo("checked");
        assertThat(invocation.isDone()).as("invocations never take the checks' slot").isFalse();
    }

    @Test
    void whenManyCallersRaceThenNoCapOrShareIsEverPassedAndEverySlotComesBack() throws Exception {
        var slots = new SandboxSlots(4, 1, 2, 2, Duration.ofSeconds(30));
        var agents = List.of(agent(), agent(), agent());
        var invoking = new AtomicInteger();
        var mostInvoking = new AtomicInteger();
        Map<Long, AtomicInteger> perUser = new ConcurrentHashMap<>();
        Map<UUID, AtomicInteger> perAgent = new ConcurrentHashMap<>();
        var passed = new CopyOnWriteArrayList<String>();
        var start = new CountDownLatch(1);
        var futures = new ArrayList<Future<String>>();
        for (int i = 0; i < 60; i++) {
            long user = i % 5;
            UUID agent = agents.get(i % 3);
            boolean check = i % 7 == 0;
            futures.add(threads.submit(() -> {
                start.await();
                return slots.run(check ? Claim.CHECK : call(user, agent), () -> {
                    if (check) {
                        return "check";
                    }
                    mostInvoking.accumulateAndGet(invoking.incrementAndGet(), Math::max);
                    if (perUser.computeIfAbsent(user, u -> new AtomicInteger()).incrementAndGet() > 2) {
                        passed.add("user " + user);
                    }
                    if (perAgent.computeIfAbsent(agent, u -> new AtomicInteger()).incrementAndGet() > 2) {
                        passed.add("agent " + agent);
                    }
                    Thread.yield();
                    perAgent.get(agent).decrementAndGet();
                    perUser.get(user).decrementAndGet();
                    invoking.decrementAndGet();
                    if (user == 3) {
                        throw new IllegalStateException("a failing run still gives its slot back");
                    }
                    return "ran";
                });
            }));
        }
        start.countDown();
        for (var f : futures) {
            try {
                f.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException expected) {
                assertThat(expected.getCause()).isInstanceOfAny(IllegalStateException.class,
                        BusinessException.class);
            }
        }

        assertThat(passed).isEmpty();
        assertThat(mostInvoking.get()).isBetween(1, 3);
        assertThat(slots.free()).isEqualTo(4);
        assertThat(slots.waiting()).isZero();
        for (var u = 0L; u < 5; u++) {
            assertThat(slots.run(call(u, agent()), () -> "ran")).as("user %d's count came back", u).isEqualTo("ran");
        }
    }

    @Test
    void whenThePoolHasOneSlotThenNoneIsKeptForChecks() {
        var slots = new SandboxSlots(1, 1, 0, 0, Duration.ZERO);

        assertThat(slots.checkSlots()).isZero();
        assertThat(slots.perCaller()).isEqualTo(1);
        assertThat(slots.run(call(1, agent()), () -> "ran")).isEqualTo("ran");
    }

    /** A run holding its slot until {@code release} is counted down, or the test ends. */
    private record Held(CountDownLatch release, Future<?> run) {
    }

    private Held hold(SandboxSlots slots, Claim claim) throws InterruptedException {
        var holding = new CountDownLatch(1);
        var mine = new CountDownLatch(1);
        Future<?> run = threads.submit(() -> slots.run(claim, () -> {
            holding.countDown();
            await(mine);
            return null;
        }));
        threads.submit(() -> {
            await(release);
            mine.countDown();
        });
        assertThat(holding.await(10, TimeUnit.SECONDS)).as("the held run started").isTrue();
        return new Held(mine, run);
    }

    private static Claim call(long user, UUID agent) {
        return Claim.invocation(user, agent, false);
    }

    private static Claim nested(long user, UUID agent) {
        return Claim.invocation(user, agent, true);
    }

    private static UUID agent() {
        return UUID.randomUUID();
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("the condition came true in time").isLessThan(deadline);
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
