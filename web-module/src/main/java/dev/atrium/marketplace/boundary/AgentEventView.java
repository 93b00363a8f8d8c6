package dev.atrium.marketplace.boundary;

import java.time.Instant;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.entity.AgentEvent;

/** One move in an agent's history: who did what, when and why. */
@Schema(description = "One move in an agent's history")
public record AgentEventView(
        long id,
        UUID agentId,
        @Schema(enumeration = {"submitted", "resubmitted", "approved", "rejected", "taken_down", "trust_changed",
                "incident", "rescanned", "rollout_started", "rollout_advanced", "rollout_completed", "rollout_paused",
                "rollout_resumed", "rolled_back", "secret_set", "secret_deleted", "reinstated"}) String action,
        @Schema(nullable = true) String fromStatus,
        String toStatus,
        String version,
        @Schema(description = "The user who made the move: the author, a reviewer, or 0 for the platform") long actorId,
        @Schema(nullable = true, description = "For a takedown, the spec's reason (security_reports when users' "
                + "reports took it down); for a trust change, <from>_to_<to>; for an incident, its code; for a "
                + "submission or a re-scan, the worst pre-listing finding (no_findings, findings_low, "
                + "findings_medium, findings_high); for a rollback, quality_drop or by_administrator")
        String reasonCode,
        @Schema(nullable = true) String reason,
        Instant createdAt) {

    public static AgentEventView from(AgentEvent e) {
        return new AgentEventView(e.id(), e.agentId(), e.action().value(),
                e.fromStatus() == null ? null : e.fromStatus().value(), e.toStatus().value(), e.agentVersion(),
                e.actorId(), e.reasonCode(), e.reason(), e.createdAt());
    }
}
