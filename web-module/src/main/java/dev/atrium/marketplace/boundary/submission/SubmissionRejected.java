package dev.atrium.marketplace.boundary.submission;

import java.util.List;
import java.util.stream.Collectors;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.control.submission.SubmissionProblem;
import dev.atrium.marketplace.entity.checks.SafetyReport;
import dev.atrium.platform.boundary.http.ErrorResponse;
import dev.atrium.platform.error.Problem;

/**
 * The spec's answer to a rejected submission, {@code {status: "rejected", errors}}, inside the platform's error
 * envelope, so that clients reading either find what they expect.
 */
public record SubmissionRejected(
        ErrorResponse.ErrorBody error,
        @Schema(enumeration = "rejected") String status,
        @Schema(description = "part: card, bundle, or the pre-listing check that failed")
        List<SubmissionProblem> errors,
        @Schema(description = "The pre-listing checks when they ran (only on a valid card and bundle); empty otherwise")
        List<CheckView> checks) {

    public static SubmissionRejected of(List<SubmissionProblem> problems, SafetyReport report) {
        String details = problems.stream().map(p -> p.part() + " " + (p.pointer().isEmpty() ? "(root)" : p.pointer())
                + ": " + p.message()).collect(Collectors.joining("; "));
        var envelope = ErrorResponse.of(Problem.VALIDATION, "Submission rejected", details);
        return new SubmissionRejected(envelope.error(), "rejected", problems, CheckView.of(report));
    }
}
