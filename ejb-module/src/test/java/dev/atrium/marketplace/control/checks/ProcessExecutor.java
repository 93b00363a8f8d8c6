package dev.atrium.marketplace.control.checks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import dev.atrium.sandbox.Executor;
import dev.atrium.sandbox.Outcome;
import dev.atrium.sandbox.RunResult;
import dev.atrium.sandbox.RunSpec;
import dev.atrium.sandbox.SandboxCapabilities;

/**
 * For unit tests of the checks only: runs the command as a bare process in the bundle directory with the spec's
 * environment (and a PATH), its stdin and its timeout; no isolation at all. {@code attempts} says which network
 * attempts to report for a spec, as the real executor's audit would.
 */
final class ProcessExecutor implements Executor {

    private final Function<RunSpec, List<String>> attempts;

    ProcessExecutor(Function<RunSpec, List<String>> attempts) {
        this.attempts = attempts;
    }

    ProcessExecutor() {
        this(spec -> List.of());
    }

    @Override
    public SandboxCapabilities capabilities() {
        return new SandboxCapabilities("process", false, false, false, false, "none", false, false, List.of());
    }

    @Override
    public RunResult run(RunSpec spec) {
        long start = System.nanoTime();
        try {
            var builder = new ProcessBuilder(spec.command()).directory(spec.bundleDir().toFile());
            builder.environment().clear();
            builder.environment().put("PATH", "/usr/bin:/bin");
            builder.environment().putAll(spec.environment());
            Process p = builder.start();
            try (var in = p.getOutputStream()) {
                in.write(spec.stdin());
            } catch (IOException closedEarly) {
                // the agent need not read its input
            }
            var out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
            var err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
            boolean done = p.waitFor(spec.limits().timeout().toMillis(), TimeUnit.MILLISECONDS);
            if (!done) {
                p.destroyForcibly().waitFor();
            }
            return new RunResult(done ? Outcome.EXITED : Outcome.TIMED_OUT, done ? p.exitValue() : -1, out.join(),
                    err.join(), false, false, Duration.ofNanos(System.nanoTime() - start), 1024 * 1024,
                    attempts.apply(spec), "bare process");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static byte[] read(InputStream in) {
        try {
            return in.readAllBytes();
        } catch (IOException e) {
            return new byte[0];
        }
    }
}
