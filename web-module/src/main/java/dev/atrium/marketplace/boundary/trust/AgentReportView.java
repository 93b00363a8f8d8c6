package dev.atrium.marketplace.boundary.trust;

import java.time.Instant;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.entity.trust.AgentReport;

/** A security report as its author and administrators see it. */
@Schema(description = "A user's security report of an agent")
public record AgentReportView(
        UUID id,
        UUID agentId,
        @Schema(description = "The reporting user") long userId,
        @Schema(enumeration = {"malicious_code", "data_exfiltration", "undeclared_access", "prompt_injection",
                "credential_theft", "other"}) String reason,
        String details,
        Instant createdAt) {

    static AgentReportView from(AgentReport r) {
        return new AgentReportView(r.id(), r.agentId(), r.userId(), r.reason().value(), r.details(), r.createdAt());
    }
}
