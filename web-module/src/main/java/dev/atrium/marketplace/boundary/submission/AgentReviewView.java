package dev.atrium.marketplace.boundary.submission;

import java.time.Instant;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.entity.quality.AgentReview;

/** A review as spec 03 describes it, with its id and times. */
@Schema(description = "A user's review of an agent")
public record AgentReviewView(
        UUID id,
        UUID agentId,
        long userId,
        @Schema(description = "1 to 5") int rating,
        String comment,
        @Schema(description = "The reviewer's successful uses when they wrote it") long usageCount,
        @Schema(description = "The reviewer really invoked the agent and, for a paid agent, paid for it")
        boolean verifiedPurchase,
        Instant createdAt,
        Instant updatedAt) {

    static AgentReviewView from(AgentReview r) {
        return new AgentReviewView(r.id(), r.agentId(), r.userId(), r.rating(), r.comment(), r.usageCount(),
                r.verifiedPurchase(), r.createdAt(), r.updatedAt());
    }
}
