package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A slot hog against the sandbox pool (issue 48, finding 5): the harness runs {@value AtriumServer#SANDBOX_SLOTS}
 * slots, one kept for the pre-listing checks and the defaults' half of the slots (2) per caller and per agent. One
 * caller's slow calls past its share are refused at once, naming the caller's cap, while other callers still run;
 * a submission's checks still run while invocations fill every slot open to them.
 */
@ExtendWith(AtriumServer.class)
class FairSlotsIT {

    private static final int PER_CALLER = AtriumServer.SANDBOX_SLOTS / 2;
    private static final int INVOCATION_SLOTS = AtriumServer.SANDBOX_SLOTS - 1;

    private static Accounts.Account staff;
    private static String echo;
    private static String slow;
    private static String slower;
    private static String slowest;

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @BeforeAll
    static void setUp() {
        assumeFalse(AtriumServer.get().embedded(), "runs against the services server");
        staff = MarketplaceFixtures.staff();
        echo = InvokeFixtures.listed(staff, InvokeFixtures.pythonCard("fair-echo"), InvokeFixtures.PYTHON_ECHO).id();
        // the shell agent sleeps on "sleep" until its timeout stops it
        slow = InvokeFixtures.listed(staff, InvokeFixtures.shellCard("fair-slow", 8), InvokeFixtures.SHELL).id();
        slower = InvokeFixtures.listed(staff, InvokeFixtures.shellCard("fair-slower", 30), InvokeFixtures.SHELL).id();
        slowest = InvokeFixtures.listed(staff, InvokeFixtures.shellCard("fair-slowest", 30), InvokeFixtures.SHELL)
                .id();
    }

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void whenOneCallerSendsFourSlowCallsThenThoseBeyondItsCapAre503WhileAnotherCallerRuns() throws Exception {
        var hog = Accounts.verified("hog").api();
        var calls = new ArrayList<Future<Reply>>();
        for (int i = 0; i < 4; i++) {
            calls.add(threads.submit(() -> InvokeFixtures.invoke(hog, slow, Map.of("text", "sleep"))));
        }
        var refused = finished(calls, 4 - PER_CALLER);

        assertThat(refused).hasSize(4 - PER_CALLER).allSatisfy(r -> {
            assertThat(r.status()).as(r.toString()).isEqualTo(503);
            assertThat(r.code()).isEqualTo(50300);
            assertThat(r.json().at("/error/message").asText()).isEqualTo("Too many of your calls are running at once");
            assertThat(r.json().at("/error/details").asText()).contains("At most " + PER_CALLER);
            assertThat(r.header("Retry-After")).isNotBlank();
        });

        var other = InvokeFixtures.invoke(Accounts.verified("not-hog").api(), echo, Map.of("text", "my turn"));

        assertThat(other.status()).as(other.toString()).isEqualTo(200);
        assertThat(other.json().get("result").asText()).isEqualTo("my turn");
        var sameAgent = InvokeFixtures.invoke(Accounts.verified("same-agent").api(), slow, Map.of("text", "sleep"));
        assertThat(sameAgent.status()).as(sameAgent.toString()).isEqualTo(503);
        assertThat(sameAgent.json().at("/error/message").asText())
                .isEqualTo("This agent is running as many calls as it may at once");
        assertThat(sameAgent.header("Retry-After")).isNotBlank();
        var running = calls.stream().filter(c -> !c.isDone()).toList();
        assertThat(running).as("the hog's admitted calls were still running meanwhile").hasSize(PER_CALLER);
        for (var call : running) {
            var reply = call.get(60, TimeUnit.SECONDS);
            assertThat(reply.header("Atrium-Run-Status")).as(reply.toString()).isEqualTo("timed_out");
        }
    }

    @Test
    void whenInvocationsFillEverySlotOpenToThemThenASubmissionStillRunsItsChecks() throws Exception {
        var holding = new ArrayList<Future<Reply>>();
        for (int i = 0; i < INVOCATION_SLOTS; i++) {
            // distinct callers over two agents, each within its caps
            var caller = Accounts.verified("filler").api();
            String agent = i % 2 == 0 ? slower : slowest;
            holding.add(threads.submit(() -> InvokeFixtures.invoke(caller, agent, Map.of("text", "sleep"))));
        }
        Accounts.sleep(1500);

        var invoke = InvokeFixtures.invoke(Accounts.verified("latecomer").api(), echo, Map.of("text", "hello"));
        assertThat(invoke.status()).as("the checks' slot is no invocation's: " + invoke).isEqualTo(503);
        assertThat(invoke.json().at("/error/message").asText()).isEqualTo("All sandbox slots are busy");
        assertThat(invoke.header("Retry-After")).isNotBlank();

        var submitted = MarketplaceFixtures.submit(Accounts.verified("fair-dev").api(),
                InvokeFixtures.pythonCard("fair-submitted"), InvokeFixtures.PYTHON_ECHO);

        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        assertThat(submitted.json().at("/smoke_tests/status").asText()).isEqualTo("passed");
        assertThat(holding).as("every invocation slot was still held while the checks ran")
                .noneMatch(Future::isDone);
        for (var call : holding) {
            var reply = call.get(90, TimeUnit.SECONDS);
            assertThat(reply.header("Atrium-Run-Status")).as(reply.toString()).isEqualTo("timed_out");
        }
    }

    /** The first {@code count} calls to finish, waiting at most 30 s for them. */
    private static List<Reply> finished(List<Future<Reply>> calls, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (calls.stream().filter(Future::isDone).count() < count && System.nanoTime() < deadline) {
            Accounts.sleep(50);
        }
        var done = new ArrayList<Reply>();
        for (var call : calls) {
            if (call.isDone()) {
                done.add(call.get());
            }
        }
        return done;
    }
}
