package dev.atrium.marketplace.boundary.submission;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.boundary.AgentView;
import dev.atrium.marketplace.control.submission.SubmissionOutcome;

/** The spec's answer to an accepted submission: stored as {@code pending}, waiting for review. */
public record SubmissionAccepted(
        @Schema(enumeration = "pending_review") String status,
        @Schema(description = "When the review is due (24 h)") Instant estimatedReview,
        UUID agentId,
        UUID submissionId,
        String name,
        String version,
        SmokeTestsView smokeTests,
        @Schema(description = "Every pre-listing check with its findings") List<CheckView> checks,
        Map<String, String> _links) {

    public static SubmissionAccepted from(SubmissionOutcome outcome) {
        var s = outcome.submission();
        return new SubmissionAccepted("pending_review", s.reviewDueAt(), s.agentId(), s.id(), s.name(), s.version(),
                new SmokeTestsView(s.smokeStatus().value(), s.smokeDetail()), CheckView.of(outcome.checks()),
                Map.of("agent", AgentView.BASE + s.agentId(), "history", AgentView.BASE + s.agentId() + "/history"));
    }
}
