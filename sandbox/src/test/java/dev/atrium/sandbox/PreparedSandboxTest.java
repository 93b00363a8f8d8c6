package dev.atrium.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sandboxes made ahead of their call (the invoke gateway's warm pool): the agent's process started and waiting for
 * its stdin. Each serves one run and is removed after it, or unused; no file, process, cgroup or environment passes
 * from one to the next.
 */
class PreparedSandboxTest {

    private static final Limits SMALL = new Limits(64 * Limits.MIB, 50, 32, Duration.ofSeconds(10), 64 * 1024,
            16 * 1024, 4 * Limits.MIB);

    @TempDir
    static Path shared;
    private static BubblewrapExecutor executor;
    private static Path workRoot;

    @TempDir
    Path bundle;
    private final String token = "atrium" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    @BeforeAll
    static void startExecutor() {
        workRoot = shared.resolve("work");
        executor = BubblewrapExecutor.create(workRoot);
        assertThat(executor.capabilities().canRunUntrusted()).as(executor.capabilities().problems().toString())
                .isTrue();
    }

    @AfterEach
    void nothingLeftBehind() throws Exception {
        BubblewrapExecutor.awaitRemovals();
        BubblewrapExecutorTest.assertNothingLeftBehind(workRoot, token);
    }

    @Test
    void whenAPreparedSandboxGetsItsInputThenItAnswersAsAColdRunDoes() throws IOException {
        write("main.py", """
                import json, sys
                request = json.load(sys.stdin)
                print(json.dumps({"output": {"echo": request["text"].upper()}}))
                """);
        RunSpec spec = spec(List.of("/usr/bin/python3", "main.py", token), SMALL);
        RunResult cold = executor.run(spec.withStdin(bytes("{\"text\":\"hello\"}")));
        try (Prepared warm = executor.prepare(spec)) {
            assertThat(warm.waiting()).isTrue();
            assertThat(BubblewrapExecutorTest.processesWith(token)).as("the agent waits for its input").isNotEmpty();
            RunResult run = warm.run(bytes("{\"text\":\"hello\"}"));
            assertThat(run.outcome()).as(run.stderrText()).isEqualTo(Outcome.EXITED);
            assertThat(run.stdoutText()).isEqualTo(cold.stdoutText()).contains("HELLO");
            assertThat(run.peakMemoryBytes()).isPositive();
            assertThat(warm.waiting()).isFalse();
        }
    }

    @Test
    void whenAPreparedSandboxIsClosedUnusedThenItsProcessesAndFilesAreGone() throws IOException {
        write("main.py", "import sys\nsys.stdin.read()\n");
        Prepared warm = executor.prepare(spec(List.of("/usr/bin/python3", "main.py", token), SMALL));
        assertThat(BubblewrapExecutorTest.processesWith(token)).isNotEmpty();
        warm.close();
        warm.close();
        assertThat(warm.waiting()).isFalse();
        assertThatThrownBy(() -> warm.run(new byte[0])).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void whenAPreparedSandboxRanThenItNeverRunsAgain() throws IOException {
        write("main.py", "import sys\nsys.stdin.read()\nprint('{\"output\": {}}')\n");
        try (Prepared warm = executor.prepare(spec(List.of("/usr/bin/python3", "main.py", token), SMALL))) {
            assertThat(warm.run(new byte[0]).succeeded()).isTrue();
            assertThatThrownBy(() -> warm.run(new byte[0])).isInstanceOf(IllegalStateException.class);
        }
    }

    /**
     * Two sandboxes of one spec, made ahead together: the first leaves a file in /tmp, a process in the background and
     * a variable in its environment; the second sees none of them, and the first's process is gone once its
     * sandbox is removed.
     */
    @Test
    void whenTwoPreparedSandboxesOfOneAgentRunThenTheSecondSeesNothingOfTheFirst() throws Exception {
        write("main.py", """
                import json, os, subprocess, sys
                seen = {"file": os.path.exists("/tmp/left"), "env": os.environ.get("LEFT"),
                        "processes": sorted(p for p in os.listdir("/proc") if p.isdigit())}
                request = json.load(sys.stdin)
                open("/tmp/left", "w").write(request["secret"])
                os.environ["LEFT"] = request["secret"]
                subprocess.Popen(["/bin/sleep", "300", sys.argv[1]], start_new_session=True)
                print(json.dumps({"output": seen}))
                """);
        RunSpec spec = spec(List.of("/usr/bin/python3", "main.py", token), SMALL);
        try (Prepared first = executor.prepare(spec); Prepared second = executor.prepare(spec)) {
            RunResult one = first.run(bytes("{\"secret\":\"one\"}"));
            assertThat(one.succeeded()).as(one.stderrText()).isTrue();
            BubblewrapExecutor.awaitRemovals();
            assertThat(BubblewrapExecutorTest.processesWith("sleep\0" + "300\0" + token))
                    .as("the first run's background process").isEmpty();
            RunResult two = second.run(bytes("{\"secret\":\"two\"}"));
            assertThat(two.stdoutText()).as(two.stderrText()).contains("\"file\": false").contains("\"env\": null")
                    .isEqualTo(one.stdoutText());
        }
    }

    /** A process left behind that keeps stdout open: the answer still comes, and the process is killed with it. */
    @Test
    void whenALeftBehindProcessHoldsTheOutputOpenThenTheRunStillAnswersAndItIsKilled() throws IOException {
        write("main.py", """
                import subprocess, sys
                sys.stdin.read()
                subprocess.Popen(["/bin/sleep", "300", sys.argv[1]], start_new_session=True)
                print('{"output": {"left": true}}', flush=True)
                """);
        try (Prepared warm = executor.prepare(spec(List.of("/usr/bin/python3", "main.py", token), SMALL))) {
            RunResult run = warm.run(new byte[0]);
            assertThat(run.outcome()).as(run.stderrText()).isEqualTo(Outcome.EXITED);
            assertThat(run.stdoutText()).contains("\"left\": true");
            assertThat(BubblewrapExecutorTest.processesWith("sleep\0" + "300\0" + token)).isEmpty();
        }
    }

    /** A sandbox made ahead yields the CPU to the runs of calls; once its own call comes it has a run's share. */
    @Test
    void whenASandboxWaitsThenItHasTheLowestCpuShareAndItsCallRunsWithTheDefault() throws Exception {
        write("main.py", "import sys, time\nsys.stdin.read()\ntime.sleep(1.5)\nprint('{\"output\": {}}')\n");
        try (Prepared warm = executor.prepare(spec(List.of("/usr/bin/python3", "main.py", token), SMALL))) {
            assertThat(cpuShares()).as("while it waits").containsExactly("lowest");
            var run = CompletableFuture.supplyAsync(() -> warm.run(new byte[0]));
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!cpuShares().equals(List.of("default")) && !run.isDone() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(cpuShares()).as("while its call runs").containsExactly("default");
            assertThat(run.get().succeeded()).isTrue();
        }
    }

    /**
     * The removal threads held up and their queue full, as under a burst: a run removes its own sandbox before it
     * answers, so what it left behind in its groups never outlives the answer.
     */
    @Test
    void whenTheRemovalsFallBehindThenARunRemovesItsSandboxBeforeItAnswers() throws Exception {
        write("main.py", """
                import subprocess, sys
                sys.stdin.read()
                subprocess.Popen(["/bin/sleep", "300", sys.argv[1]], start_new_session=True,
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                print('{"output": {"left": true}}', flush=True)
                """);
        var held = new CountDownLatch(1);
        try (Prepared warm = executor.prepare(spec(List.of("/usr/bin/python3", "main.py", token), SMALL))) {
            for (int i = 0; i < 2 + 16; i++) {
                BubblewrapExecutor.REMOVALS.execute(() -> {
                    try {
                        held.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            RunResult run = warm.run(new byte[0]);
            assertThat(run.stdoutText()).contains("\"left\": true");
            BubblewrapExecutorTest.assertNothingLeftBehind(workRoot, token);
        } finally {
            held.countDown();
        }
    }

    @Test
    void whenTheAgentFloodsItsOutputBeforeItsInputThenTheRunEndsAtTheOutputLimit() throws IOException {
        write("main.py", "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n");
        try (Prepared warm = executor.prepare(spec(List.of("/usr/bin/python3", "main.py", token), SMALL))) {
            RunResult run = warm.run(new byte[0]);
            assertThat(run.outcome()).isEqualTo(Outcome.OUTPUT_LIMIT);
            assertThat(run.stdout().length).isLessThanOrEqualTo((int) SMALL.maxStdoutBytes());
        }
    }

    /** The limits are the cgroup's from the sandbox's start: the same for a sandbox made ahead as for a cold run. */
    @Test
    void whenTheAgentPassesItsMemoryOrProcessLimitThenThePreparedRunEndsAsAColdRunDoes() throws IOException {
        write("hog.py", """
                import sys
                sys.stdin.read()
                blocks = []
                while True:
                    blocks.append(bytearray(1 << 20))
                """);
        try (Prepared warm = executor.prepare(spec(List.of("/usr/bin/python3", "hog.py", token), SMALL))) {
            assertThat(warm.run(new byte[0]).outcome()).isEqualTo(Outcome.MEMORY_LIMIT);
        }
        write("forks.py", """
                import os, sys
                sys.stdin.read()
                made = 0
                try:
                    while made < 1000:
                        if os.fork() == 0:
                            import time
                            time.sleep(30)
                            os._exit(0)
                        made += 1
                except OSError:
                    pass
                print(made)
                """);
        try (Prepared warm = executor.prepare(spec(List.of("/usr/bin/python3", "forks.py", token), SMALL))) {
            RunResult run = warm.run(new byte[0]);
            assertThat(Integer.parseInt(run.stdoutText().trim())).as(run.stderrText()).isPositive()
                    .isLessThan(SMALL.maxProcesses() + 5);
        }
    }

    /** The pool closes a sandbox whose agent works before its input; the cgroup's CPU account tells it. */
    @Test
    void whenTheAgentWorksBeforeItsInputThenItsCpuTimeShowsItAndAWaitingOnesDoesNot() throws Exception {
        write("spin.py", "while True:\n    pass\n");
        write("wait.py", "import sys\nsys.stdin.read()\n");
        try (Prepared spinning = executor.prepare(spec(List.of("/usr/bin/python3", "spin.py", token), SMALL));
                Prepared waiting = executor.prepare(spec(List.of("/usr/bin/python3", "wait.py", token), SMALL))) {
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (spinning.cpuTime().compareTo(Duration.ofMillis(300)) < 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(spinning.cpuTime()).isGreaterThanOrEqualTo(Duration.ofMillis(300));
            assertThat(spinning.settled()).isFalse();
            assertThat(waiting.cpuTime()).as("the interpreter's start only").isLessThan(Duration.ofMillis(300));
        }
    }

    @Test
    void whenTheAgentExitedBeforeItsInputThenTheRunIsItsExit() throws IOException {
        write("main.py", "print('{\"output\": {\"early\": true}}')\n");
        try (Prepared warm = executor.prepare(spec(List.of("/usr/bin/python3", "main.py", token), SMALL))) {
            RunResult run = warm.run(bytes("{}"));
            assertThat(run.outcome()).isEqualTo(Outcome.EXITED);
            assertThat(run.stdoutText()).contains("early");
        }
    }

    @Test
    void whenTheAgentIgnoresItsInputThenTheTimeoutStillEndsIt() throws IOException {
        write("main.py", "import time\ntime.sleep(60)\n");
        Limits short1 = SMALL.withTimeout(Duration.ofSeconds(1));
        try (Prepared warm = executor.prepare(spec(List.of("/usr/bin/python3", "main.py", token), short1))) {
            RunResult run = warm.run(new byte[0]);
            assertThat(run.outcome()).isEqualTo(Outcome.TIMED_OUT);
        }
    }

    /** Without a cgroup nothing would bound or account what the agent does while it waits: nothing starts early. */
    @Test
    void whenTheMachineHasNoCgroupsThenNothingStartsBeforeTheInputAndTheRunStillAnswers(@TempDir Path elsewhere)
            throws IOException {
        write("main.py", "import sys\nsys.stdin.read()\nprint('{\"output\": {}}')\n");
        Path unwritable = elsewhere.resolve("cgroup");
        Files.createDirectories(unwritable);
        Files.setPosixFilePermissions(unwritable, PosixFilePermissions.fromString("r-xr-xr-x"));
        var limitless = BubblewrapExecutor.create(elsewhere.resolve("work"), unwritable);
        var trusted = new RunSpec(bundle, List.of("/usr/bin/python3", "main.py", token), new byte[0], Map.of(),
                SMALL, Network.NONE, false, false, false);
        try (Prepared ahead = limitless.prepare(trusted)) {
            assertThat(BubblewrapExecutorTest.processesWith(token)).as("nothing runs before the input").isEmpty();
            assertThat(ahead.run(new byte[0]).succeeded()).isTrue();
        }
        assertThatThrownBy(() -> limitless.prepare(spec(List.of("/usr/bin/python3", "main.py", token), SMALL)))
                .isInstanceOf(SandboxRefused.class);
    }

    @Test
    void whenTheSpecCannotBeEnforcedThenPreparingIsRefusedAsARunIs() {
        assertThatThrownBy(() -> executor.prepare(RunSpec.of(bundle.resolve("missing"), List.of("/bin/true"),
                new byte[0], SMALL))).isInstanceOf(SandboxRefused.class);
        assertThatThrownBy(() -> executor.prepare(new RunSpec(bundle, List.of("/bin/true"), new byte[0],
                Map.of("A=B", "c"), SMALL, Network.NONE, false, false, true)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** The CPU shares (v1) or weights (v2) of this JVM's run groups: "lowest", "default" or the value. */
    private static List<String> cpuShares() throws IOException {
        String prefix = "run-" + ProcessHandle.current().pid() + "-";
        for (Path parent : List.of(Path.of("/sys/fs/cgroup/cpu", Cgroups.PARENT), Path.of("/sys/fs/cgroup",
                Cgroups.PARENT), Path.of("/sys/fs/cgroup/unified", Cgroups.PARENT))) {
            if (Files.isDirectory(parent)) {
                try (var groups = Files.list(parent)) {
                    var found = groups.filter(g -> g.getFileName().toString().startsWith(prefix))
                            .flatMap(g -> Stream.of(g.resolve("cpu.shares"), g.resolve("cpu.weight")))
                            .filter(Files::exists).map(PreparedSandboxTest::read).toList();
                    if (!found.isEmpty()) {
                        return found.stream().map(v -> switch (v) {
                            case "1", "2" -> "lowest";
                            case "100", "1024" -> "default";
                            default -> v;
                        }).toList();
                    }
                }
            }
        }
        return List.of();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).trim();
        } catch (IOException e) {
            return "gone";
        }
    }

    private RunSpec spec(List<String> command, Limits limits) {
        return RunSpec.of(bundle, command, new byte[0], limits);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private void write(String name, String text) throws IOException {
        Path file = bundle.resolve(name);
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }
}
