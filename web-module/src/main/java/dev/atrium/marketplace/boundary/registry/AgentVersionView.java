package dev.atrium.marketplace.boundary.registry;

import java.time.Instant;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.entity.AgentVersion;

/** One version of an agent. */
@Schema(description = "One version of an agent")
public record AgentVersionView(
        UUID id,
        String version,
        @Schema(enumeration = {"pending_review", "approved", "rejected", "superseded"}) String reviewState,
        @Schema(nullable = true) Instant decidedAt,
        @Schema(nullable = true, description = "Set when a rollout dropped this version") Instant rolledBackAt,
        Instant createdAt) {

    static AgentVersionView from(AgentVersion v) {
        return new AgentVersionView(v.id(), v.version(), v.status().value(), v.decidedAt(), v.rolledBackAt(),
                v.createdAt());
    }
}
