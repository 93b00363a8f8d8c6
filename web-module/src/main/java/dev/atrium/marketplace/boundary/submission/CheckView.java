package dev.atrium.marketplace.boundary.submission;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.entity.checks.CheckFinding;
import dev.atrium.marketplace.entity.checks.CheckResult;
import dev.atrium.marketplace.entity.checks.SafetyReport;

/** One pre-listing check as answered and stored: a high finding means {@code failed}, which rejects. */
@Schema(description = "A pre-listing check: smoke_tests, static_scan, dependencies, image_scan (image archives "
        + "only), prompt_injection, network_audit or resources")
public record CheckView(
        String name,
        @Schema(enumeration = {"passed", "failed", "not_run"}) String status,
        @Schema(description = "What ran and what was measured, or why the check did not run") String summary,
        List<FindingView> findings,
        long durationMs) {

    /** One finding: how bad, where (a file and line, a test case, a run), what. */
    public record FindingView(
            @Schema(enumeration = {"low", "medium", "high"}) String severity,
            String pointer,
            String message) {

        static FindingView from(CheckFinding f) {
            return new FindingView(f.severity().value(), f.pointer(), f.message());
        }
    }

    static CheckView from(CheckResult c) {
        return new CheckView(c.name(), c.status().value(), c.summary(),
                c.findings().stream().map(FindingView::from).toList(), c.durationMs());
    }

    static List<CheckView> of(SafetyReport report) {
        return report.checks().stream().map(CheckView::from).toList();
    }
}
