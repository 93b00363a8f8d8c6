package dev.atrium.marketplace.entity.quality;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An agent's quality figures as the quality-scoring job last measured them over its window. */
@Entity
@Table(name = "agent_quality")
public class AgentQuality {

    @Id
    @Column(name = "agent_id")
    private UUID agentId;

    @Column(name = "quality_score", nullable = false)
    private double qualityScore;

    @Column(name = "success_rate", nullable = false)
    private double successRate;

    @Column(name = "avg_latency_s", nullable = false)
    private double avgLatencySeconds;

    @Column(name = "avg_cost_usd", nullable = false)
    private double avgCostUsd;

    @Column(name = "total_calls", nullable = false)
    private long totalCalls;

    @Column(nullable = false)
    private int incidents;

    @Column(name = "window_days", nullable = false)
    private int windowDays;

    @Column(name = "computed_at", nullable = false)
    private Instant computedAt;

    protected AgentQuality() {
    }

    public AgentQuality(UUID agentId) {
        this.agentId = agentId;
    }

    public void measured(QualityScore q, int windowDays, Instant now) {
        this.qualityScore = q.score();
        this.successRate = q.successRate();
        this.avgLatencySeconds = q.avgLatencySeconds();
        this.avgCostUsd = q.avgCostUsd();
        this.totalCalls = q.totalCalls();
        this.incidents = q.incidents();
        this.windowDays = windowDays;
        this.computedAt = now;
    }

    public UUID agentId() {
        return agentId;
    }

    public double qualityScore() {
        return qualityScore;
    }

    public double successRate() {
        return successRate;
    }

    public double avgLatencySeconds() {
        return avgLatencySeconds;
    }

    public double avgCostUsd() {
        return avgCostUsd;
    }

    public long totalCalls() {
        return totalCalls;
    }

    public int incidents() {
        return incidents;
    }

    public int windowDays() {
        return windowDays;
    }

    public Instant computedAt() {
        return computedAt;
    }
}
