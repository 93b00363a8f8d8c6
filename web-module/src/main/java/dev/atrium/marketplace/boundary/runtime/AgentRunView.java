package dev.atrium.marketplace.boundary.runtime;

import java.time.Instant;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.entity.runtime.AgentRun;

/**
 * A run as the agent's author and reviewers see it: how it ended, never the caller's input or output, and the log
 * only of the viewer's own calls (an agent may write its input to stderr).
 */
@Schema(description = "One run of an agent, for its author: no input, no output, the log only of one's own calls")
public record AgentRunView(
        UUID id,
        String agentVersion,
        @Schema(enumeration = {"succeeded", "failed", "timed_out", "memory_limit", "output_limit", "killed"})
        String status,
        long durationMs,
        @Schema(nullable = true) String exitReason,
        int exitCode,
        @Schema(nullable = true, description = "The agent's stderr, personal data masked, at most 64 KiB: only for "
                + "the viewer's own calls, null for anyone else's") String log,
        boolean personalDataInOutput,
        Instant createdAt) {

    static AgentRunView from(AgentRun r, Long viewer) {
        return new AgentRunView(r.id(), r.agentVersion(), r.status().value(), r.durationMs(), r.exitReason(),
                r.exitCode(), viewer == null ? null : r.logFor(viewer), r.piiInOutput(), r.createdAt());
    }
}
