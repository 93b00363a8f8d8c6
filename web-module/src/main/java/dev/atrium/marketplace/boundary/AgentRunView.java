package dev.atrium.marketplace.boundary;

import java.time.Instant;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.entity.AgentRun;

/** A run as the agent's author and reviewers see it: never the caller's input or output. */
@Schema(description = "One run of an agent, for its author: no input, no output")
public record AgentRunView(
        UUID id,
        String agentVersion,
        @Schema(enumeration = {"succeeded", "failed", "timed_out", "memory_limit", "output_limit", "killed"})
        String status,
        long durationMs,
        @Schema(nullable = true) String exitReason,
        int exitCode,
        @Schema(description = "The agent's stderr, personal data masked, at most 64 KiB") String log,
        boolean personalDataInOutput,
        Instant createdAt) {

    static AgentRunView from(AgentRun r) {
        return new AgentRunView(r.id(), r.agentVersion(), r.status().value(), r.durationMs(), r.exitReason(),
                r.exitCode(), r.maskedLog(), r.piiInOutput(), r.createdAt());
    }
}
