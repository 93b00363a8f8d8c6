package dev.atrium.marketplace.control.checks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.atrium.marketplace.entity.checks.CheckFinding;
import dev.atrium.sandbox.Limits;
import dev.atrium.sandbox.Outcome;

/**
 * Check 6, time and memory: every smoke run must finish within the declared bounds (the effective limits of an
 * unverified agent: memory and timeout) and under {@link #MAX_WALL}. A run past {@link #MAX_WALL} is a high finding;
 * one the sandbox stopped for time or memory, or measured past a declared bound, a medium one (its smoke test failed,
 * which rejects already).
 */
final class ResourceUseCheck {

    static final String NAME = "resources";
    static final Duration MAX_WALL = Duration.ofSeconds(60);

    /** The findings and a summary of the largest figures measured. */
    record Measured(List<CheckFinding> findings, String summary) {
    }

    static Measured check(List<CheckRunner.AgentRun> runs) {
        var findings = new ArrayList<CheckFinding>();
        Duration longest = Duration.ZERO;
        long peak = 0;
        Limits bounds = null;
        for (CheckRunner.AgentRun run : runs) {
            if (!run.smoke()) {
                continue;
            }
            var r = run.result();
            Limits limits = run.limits();
            bounds = limits;
            longest = r.wallTime().compareTo(longest) > 0 ? r.wallTime() : longest;
            peak = Math.max(peak, r.peakMemoryBytes());
            if (r.wallTime().compareTo(MAX_WALL) > 0) {
                findings.add(CheckFinding.high(run.label(), "Took " + millis(r.wallTime()) + ", past 60 s"));
            } else if (r.outcome() == Outcome.TIMED_OUT || r.wallTime().compareTo(limits.timeout()) > 0) {
                findings.add(CheckFinding.medium(run.label(), "Took " + millis(r.wallTime()) + ", past the declared "
                        + limits.timeout().toSeconds() + " s"));
            }
            if (r.outcome() == Outcome.MEMORY_LIMIT || r.peakMemoryBytes() > limits.memoryBytes()) {
                findings.add(CheckFinding.medium(run.label(), "Used more memory than the declared "
                        + limits.memoryBytes() / Limits.MIB + " MB"));
            }
        }
        if (bounds == null) {
            return new Measured(findings, "No smoke run to measure");
        }
        String memory = peak > 0 ? String.format(Locale.ROOT, "%.1f MB", peak / (double) Limits.MIB)
                : "not reported by the sandbox";
        return new Measured(findings, "Longest smoke run " + millis(longest) + " of " + bounds.timeout().toSeconds()
                + " s allowed; peak memory " + memory + " of " + bounds.memoryBytes() / Limits.MIB + " MB");
    }

    private static String millis(Duration d) {
        return d.toMillis() + " ms";
    }
}
