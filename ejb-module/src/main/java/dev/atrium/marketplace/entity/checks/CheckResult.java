package dev.atrium.marketplace.entity.checks;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One pre-listing check's report: its name (for example {@code smoke_tests}), status, a one-line summary, the
 * findings (at most {@link #MAX_FINDINGS}; the summary counts the rest) and how long it took. The status is
 * {@code failed} exactly when a finding is high, unless the check did not run.
 */
public record CheckResult(String name, CheckStatus status, String summary, List<CheckFinding> findings,
                          long durationMs) {

    public static final int MAX_FINDINGS = 50;

    public CheckResult {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(status, "status");
        summary = CheckFinding.cut(summary == null ? "" : summary, CheckFinding.MAX_MESSAGE);
        findings = List.copyOf(findings);
    }

    /** A check that ran: failed when any finding is high. More than {@link #MAX_FINDINGS} findings are counted. */
    public static CheckResult ran(String name, String summary, List<CheckFinding> findings, long durationMs) {
        var kept = new ArrayList<>(findings);
        // the high findings first, so that a cut never drops the ones that decide
        kept.sort((a, b) -> b.severity().compareTo(a.severity()));
        String text = summary;
        if (kept.size() > MAX_FINDINGS) {
            text = summary + " (" + (kept.size() - MAX_FINDINGS) + " more findings not listed)";
            kept = new ArrayList<>(kept.subList(0, MAX_FINDINGS));
        }
        boolean high = kept.stream().anyMatch(f -> f.severity() == Severity.HIGH);
        return new CheckResult(name, high ? CheckStatus.FAILED : CheckStatus.PASSED, text, kept, durationMs);
    }

    public static CheckResult notRun(String name, String reason) {
        return new CheckResult(name, CheckStatus.NOT_RUN, reason, List.of(), 0);
    }

    public boolean failed() {
        return status == CheckStatus.FAILED;
    }

    public long count(Severity severity) {
        return findings.stream().filter(f -> f.severity() == severity).count();
    }
}
