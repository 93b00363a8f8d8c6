package dev.atrium.marketplace.boundary.runtime;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.boundary.JsonValues;
import dev.atrium.marketplace.control.runtime.RunService;
import dev.atrium.marketplace.entity.runtime.AgentRun;

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
        Instant createdAt,
        @Schema(description = "What this run was charged, 6 decimals") BigDecimal priceUsd,
        @Schema(description = "What the whole invocation was charged: this run and every dependency call under it "
                + "(the Atrium-Price-Usd the caller was answered)") BigDecimal totalPriceUsd,
        @Schema(description = "The dependency calls this run made, each with its price") List<DependencyCallView>
                dependencyCalls,
        @Schema(description = "Dependency calls of the invocation refused because they did not fit in the price the "
                + "caller agreed to (Atrium-Max-Price-Usd)") int dependencyCallsRefused) {

    /** A dependency call of a run. */
    public record DependencyCallView(UUID runId, UUID agentId, String agentVersion, boolean succeeded,
                                     BigDecimal priceUsd) {
    }

    static RunView from(RunService.RunDetails d) {
        AgentRun r = d.run();
        return new RunView(r.id(), r.agentId(), r.agentVersion(), r.status().value(), r.durationMs(), r.exitReason(),
                r.exitCode(), JsonValues.object(r.inputJson()), JsonValues.object(r.outputJson()), r.maskedLog(),
                r.piiInOutput(), r.piiKinds(), r.createdAt(), d.price(), d.total(),
                d.dependencyCalls().stream().map(c -> new DependencyCallView(c.runId(), c.agentId(),
                        c.agentVersion(), c.succeeded(), c.price())).toList(), d.dependencyCallsRefused());
    }
}
