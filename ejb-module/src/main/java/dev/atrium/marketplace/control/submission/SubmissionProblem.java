package dev.atrium.marketplace.control.submission;

import java.util.ArrayList;
import java.util.List;

import dev.atrium.marketplace.entity.checks.SafetyReport;
import dev.atrium.marketplace.entity.checks.Severity;

/**
 * One reason a submission was rejected. {@code part} is {@code card} or {@code bundle}, or the name of the pre-listing
 * check that found a high-risk problem ({@code smoke_tests}, {@code static_scan}, ...); {@code pointer} is the JSON
 * pointer of the offending value in the card (empty for the whole card), the archive entry's name for the bundle, or
 * the check's own pointer (a test case, a file and line, a run).
 */
public record SubmissionProblem(String part, String pointer, String message) {

    public static SubmissionProblem card(String pointer, String message) {
        return new SubmissionProblem("card", pointer, message);
    }

    public static SubmissionProblem bundle(String entry, String message) {
        return new SubmissionProblem("bundle", entry, message);
    }

    /** The high findings of the checks that failed, one problem each. */
    public static List<SubmissionProblem> of(SafetyReport report) {
        var problems = new ArrayList<SubmissionProblem>();
        for (var check : report.checks()) {
            if (check.failed()) {
                check.findings().stream().filter(f -> f.severity() == Severity.HIGH)
                        .forEach(f -> problems.add(new SubmissionProblem(check.name(), f.pointer(), f.message())));
            }
        }
        return problems;
    }
}
