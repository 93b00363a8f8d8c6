package dev.atrium.marketplace.boundary;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.entity.AgentRun;

/** A run as its caller sees it: what went in (personal data masked), what came out, and how it ended. */
@Schema(description = "One run of an agent, for its caller")
public record RunView(
        UUID id,
        UUID agentId,
        String agentVersion,
        @Schema(enumeration = {"succeeded", "failed", "timed_out", "memory_limit", "output_limit", "killed"})
        String status,
        long durationMs,
        @Schema(nullable = true, description = "Why the run failed; null when it succeeded") String exitReason,
        int exitCode,
        @Schema(description = "The input as the agent received it, personal data masked") Object input,
        @Schema(description = "What the caller was answered: the output, or {error}") Object output,
        @Schema(description = "The agent's stderr, personal data masked, at most 64 KiB") String log,
        @Schema(description = "Whether the output carried personal data (flagged, not blocked)")
        boolean personalDataInOutput,
        List<String> personalDataKinds,
        Instant createdAt) {

    static RunView from(AgentRun r) {
        return new RunView(r.id(), r.agentId(), r.agentVersion(), r.status().value(), r.durationMs(), r.exitReason(),
                r.exitCode(), JsonValues.object(r.inputJson()), JsonValues.object(r.outputJson()), r.maskedLog(),
                r.piiInOutput(), r.piiKinds(), r.createdAt());
    }
}
