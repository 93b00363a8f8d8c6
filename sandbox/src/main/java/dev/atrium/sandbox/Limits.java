package dev.atrium.sandbox;

import java.time.Duration;
import java.util.Objects;

/**
 * What one run may use. Memory, CPU and the process count are enforced through cgroups (v2, or v1 controllers);
 * where a pids controller is absent, through {@code RLIMIT_NPROC} inside a fresh user namespace. Output beyond
 * {@code maxStdoutBytes}/{@code maxStderrBytes} is cut and the run is ended with {@link Outcome#OUTPUT_LIMIT}.
 */
public record Limits(long memoryBytes, int cpuPercent, int maxProcesses, Duration timeout, long maxStdoutBytes,
                     long maxStderrBytes, long tmpBytes) {

    public static final long MIB = 1024L * 1024;

    /** The executor's own defaults where no card is involved: 512 MB, 50 % of one CPU, 120 s. */
    public static final Limits DEFAULTS = new Limits(512 * MIB, 50, 64, Duration.ofSeconds(120), MIB, 256 * 1024,
            64 * MIB);

    public Limits {
        Objects.requireNonNull(timeout, "timeout");
        if (memoryBytes < 16 * MIB || cpuPercent < 1 || cpuPercent > 100 * Runtime.getRuntime().availableProcessors()
                || maxProcesses < 1 || timeout.isNegative() || timeout.isZero() || maxStdoutBytes < 1
                || maxStderrBytes < 1 || tmpBytes < MIB) {
            throw new IllegalArgumentException("Limits out of range: " + memoryBytes + " B, " + cpuPercent + " %, "
                    + maxProcesses + " processes, " + timeout + ", " + maxStdoutBytes + "/" + maxStderrBytes
                    + " B output, " + tmpBytes + " B tmp");
        }
    }

    public Limits withMemoryMb(long mb) {
        return new Limits(mb * MIB, cpuPercent, maxProcesses, timeout, maxStdoutBytes, maxStderrBytes, tmpBytes);
    }

    public Limits withCpuPercent(int percent) {
        return new Limits(memoryBytes, percent, maxProcesses, timeout, maxStdoutBytes, maxStderrBytes, tmpBytes);
    }

    public Limits withTimeout(Duration t) {
        return new Limits(memoryBytes, cpuPercent, maxProcesses, t, maxStdoutBytes, maxStderrBytes, tmpBytes);
    }
}
