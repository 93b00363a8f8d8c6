package dev.atrium.marketplace.boundary.submission;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.boundary.AgentView;
import dev.atrium.marketplace.entity.AgentVersion;

/** One accepted submission, as reviewers see it. */
@Schema(description = "An accepted submission, as reviewers see it")
public record SubmissionView(
        UUID id,
        UUID agentId,
        long authorId,
        String name,
        String version,
        @Schema(enumeration = {"pending_review", "approved", "rejected", "superseded"}) String status,
        SmokeTestsView smokeTests,
        @Schema(description = "The pre-listing checks at submission; empty for submissions made before they existed")
        List<CheckView> checks,
        @Schema(nullable = true) Long bundleSize,
        @Schema(description = "When the review is due: 24 h after submission") Instant estimatedReview,
        @Schema(nullable = true) Instant decidedAt,
        @Schema(nullable = true) Long decidedBy,
        @Schema(nullable = true) String decisionNote,
        Instant createdAt,
        Map<String, String> _links) {

    static SubmissionView from(AgentVersion s) {
        var links = new LinkedHashMap<String, String>();
        links.put("agent", AgentView.BASE + s.agentId());
        links.put("approve", "/v1/admin/agents/" + s.agentId() + "/approve");
        links.put("reject", "/v1/admin/agents/" + s.agentId() + "/reject");
        return new SubmissionView(s.id(), s.agentId(), s.authorId(), s.name(), s.version(), s.status().value(),
                new SmokeTestsView(s.smokeStatus().value(), s.smokeDetail()), CheckView.of(s.checks()), s.bundleSize(),
                s.reviewDueAt(),
                s.decidedAt(), s.decidedBy(), s.decisionNote(), s.createdAt(), links);
    }
}
