package dev.atrium.sandbox;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Measures one run of a trivial Python agent: as a bare process, under {@link BubblewrapExecutor} with limits, and
 * with the network audit. Prints p50 and p99 in milliseconds; asserts nothing. {@code scripts/bench-sandbox} runs
 * it: {@code java ... dev.atrium.sandbox.SandboxBench [runs]}.
 */
public final class SandboxBench {

    private static final String AGENT = """
            import json, sys
            request = json.load(sys.stdin)
            print(json.dumps({"output": {"echo": request["input"]}}))
            """;
    private static final byte[] INPUT = "{\"input\":\"hello\"}".getBytes(StandardCharsets.UTF_8);

    /** The time a sandbox made ahead is given to start its agent before its call comes, as in a pool. */
    private static final long WARM_UP_MILLIS = 100;

    private SandboxBench() {
    }

    public static void main(String[] args) throws IOException {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        Path bundle = Files.createTempDirectory("atrium-bench-bundle");
        Path work = Files.createTempDirectory("atrium-bench-work");
        try {
            Files.setPosixFilePermissions(bundle, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.writeString(bundle.resolve("main.py"), AGENT);
            Files.setPosixFilePermissions(bundle.resolve("main.py"), PosixFilePermissions.fromString("rw-r--r--"));
            var executor = BubblewrapExecutor.create(work);
            System.out.println("capabilities: " + executor.capabilities());
            var command = List.of("/usr/bin/python3", "main.py");
            report("bare process", runs, () -> bare(bundle, command));
            report("bubblewrap + cgroups", runs, () -> sandboxed(executor, RunSpec.of(bundle, command, INPUT,
                    Limits.DEFAULTS)));
            // made ahead as the gateway's warm pool does: only the run, from its input to its removal, is timed
            var limited = RunSpec.of(bundle, command, new byte[0], Limits.DEFAULTS);
            Prepared[] next = {executor.prepare(limited)};
            report("bubblewrap + cgroups, made ahead (warm)", runs, () -> {
                long start = System.nanoTime();
                RunResult result = next[0].run(INPUT);
                long elapsed = System.nanoTime() - start;
                check(result.stdoutText());
                next[0] = executor.prepare(limited);
                pause(WARM_UP_MILLIS);
                return elapsed;
            });
            next[0].close();
            var bare = BubblewrapExecutor.create(work.resolve("no-cgroups"), work.resolve("none"));
            report("bubblewrap without cgroups (trusted)", runs, () -> sandboxed(bare, new RunSpec(bundle, command,
                    INPUT, java.util.Map.of(), Limits.DEFAULTS, Network.NONE, false, false, false)));
            report("bubblewrap + cgroups + strace audit", runs, () -> sandboxed(executor, new RunSpec(bundle,
                    command, INPUT, java.util.Map.of(), Limits.DEFAULTS, Network.NONE, false, true, true)));
        } finally {
            BubblewrapExecutor.deleteTree(bundle);
            BubblewrapExecutor.deleteTree(work);
        }
    }

    private static String bare(Path bundle, List<String> command) {
        try {
            Process p = new ProcessBuilder(command).directory(bundle.toFile()).start();
            try (OutputStream in = p.getOutputStream()) {
                in.write(INPUT);
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String sandboxed(Executor executor, RunSpec spec) {
        RunResult result = executor.run(spec);
        if (!result.succeeded()) {
            throw new IllegalStateException(result.detail() + " " + result.stderrText());
        }
        return result.stdoutText();
    }

    private static void report(String name, int runs, Supplier<String> run) {
        report(name, runs, () -> {
            long start = System.nanoTime();
            check(run.get());
            return System.nanoTime() - start;
        });
    }

    /** {@code run} returns the nanoseconds of the part it times. */
    private static void report(String name, int runs, LongSupplier run) {
        for (int i = 0; i < 5; i++) {
            run.getAsLong();
        }
        double[] millis = new double[runs];
        for (int i = 0; i < runs; i++) {
            millis[i] = run.getAsLong() / 1e6;
        }
        Arrays.sort(millis);
        System.out.printf("%-40s runs=%d p50=%.1f ms p99=%.1f ms max=%.1f ms%n", name, runs,
                millis[(int) Math.ceil(runs * 0.50) - 1], millis[(int) Math.ceil(runs * 0.99) - 1],
                millis[runs - 1]);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void check(String out) {
        if (!out.contains("\"echo\": \"hello\"")) {
            throw new IllegalStateException("Unexpected output: " + out);
        }
    }
}
