package dev.atrium.marketplace.boundary.quality;

import java.time.Instant;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.quality.AgentQuality;

/** An agent's quality as the daily quality-scoring job last measured it. */
@Schema(description = "The agent's quality over the window, as the quality-scoring job last measured it; before its "
        + "first measure the neutral score 2.5 with no figures")
public record QualityView(
        UUID agentId,
        @Schema(description = "0 to 5") double qualityScore,
        @Schema(nullable = true, description = "Successful calls / calls, 0 to 1") Double successRate,
        @Schema(nullable = true) Double avgLatencyS,
        @Schema(nullable = true, description = "Mean price charged per call") Double avgCostUsd,
        long totalCalls,
        @Schema(nullable = true, description = "Security incidents in the window (the safety part)") Integer incidents,
        int window,
        @Schema(nullable = true, description = "When the job measured it; null before its first run") Instant computedAt) {

    static QualityView of(Agent agent, AgentQuality q, int windowDays) {
        if (q == null) {
            return new QualityView(agent.id(), agent.qualityScore(), null, null, null, 0, null, windowDays, null);
        }
        return new QualityView(agent.id(), q.qualityScore(), q.successRate(), q.avgLatencySeconds(), q.avgCostUsd(),
                q.totalCalls(), q.incidents(), q.windowDays(), q.computedAt());
    }
}
