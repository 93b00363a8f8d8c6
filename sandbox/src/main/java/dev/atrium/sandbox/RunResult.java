package dev.atrium.sandbox;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * What a run did: how it ended, its exit code (-1 when killed), stdout and stderr (each at most its cap;
 * {@code stdoutTruncated}/{@code stderrTruncated} say whether more was written), wall time, the peak memory the
 * cgroup saw (0 when unknown), the CPU time the group's processes used (user and system, from the cgroup's
 * accounting; zero when unknown), the network system calls seen when audited (for example
 * {@code connect(AF_INET, 93.184.216.34:443) = -1 ENETUNREACH}), and a short detail for the log.
 */
public record RunResult(Outcome outcome, int exitCode, byte[] stdout, byte[] stderr, boolean stdoutTruncated,
                        boolean stderrTruncated, Duration wallTime, long peakMemoryBytes, Duration cpuTime,
                        List<String> networkAttempts, String detail) {

    public RunResult {
        stdout = stdout.clone();
        stderr = stderr.clone();
        cpuTime = cpuTime == null ? Duration.ZERO : cpuTime;
        networkAttempts = List.copyOf(networkAttempts);
    }

    /** A result whose CPU time is unknown (an executor without cgroup accounting). */
    public RunResult(Outcome outcome, int exitCode, byte[] stdout, byte[] stderr, boolean stdoutTruncated,
                     boolean stderrTruncated, Duration wallTime, long peakMemoryBytes, List<String> networkAttempts,
                     String detail) {
        this(outcome, exitCode, stdout, stderr, stdoutTruncated, stderrTruncated, wallTime, peakMemoryBytes,
                Duration.ZERO, networkAttempts, detail);
    }

    public boolean succeeded() {
        return outcome == Outcome.EXITED && exitCode == 0;
    }

    public String stdoutText() {
        return new String(stdout, StandardCharsets.UTF_8);
    }

    public String stderrText() {
        return new String(stderr, StandardCharsets.UTF_8);
    }
}
