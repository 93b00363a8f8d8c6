package dev.atrium.marketplace.boundary.rollout;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.boundary.AgentEventView;
import dev.atrium.marketplace.control.rollout.RolloutService;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.quality.QualityScore;

/** An agent's rollout as its author and reviewers see it. */
@Schema(description = "The rollout of an agent's next version: state, versions, figures over the current step")
public record RolloutView(
        UUID agentId,
        @Schema(enumeration = {"none", "rolling_out", "paused"}) String state,
        @Schema(nullable = true, description = "The version serving the other callers") VersionRef current,
        @Schema(nullable = true, description = "The version rolling out") VersionRef candidate,
        @Schema(description = "Share of callers the candidate serves (0 without a rollout)") int percent,
        @Schema(nullable = true) Instant stepStartedAt,
        @Schema(nullable = true, description = "When the step may advance, if quality holds (not while paused)")
        Instant nextStepDueAt,
        @Schema(nullable = true, description = "Each version's figures since the step began") Figures figures,
        Settings settings,
        @Schema(description = "The latest rollout moves, newest first") List<AgentEventView> moves) {

    /** A version by id and number. */
    public record VersionRef(UUID id, String version) {

        static VersionRef of(AgentVersion v) {
            return v == null ? null : new VersionRef(v.id(), v.version());
        }
    }

    /** One version's measured figures. */
    public record Measured(long calls, double successRate, double avgLatencyS, double avgCostUsd,
                           double qualityScore) {

        static Measured of(QualityScore q) {
            return new Measured(q.totalCalls(), q.successRate(), q.avgLatencySeconds(), q.avgCostUsd(), q.score());
        }
    }

    public record Figures(Measured current, Measured candidate) {
    }

    /** The policy's settings. */
    public record Settings(long stepHours, long minCalls, double successMargin, double qualityMargin) {
    }

    static RolloutView from(RolloutService.Rollout r) {
        var s = r.settings();
        return new RolloutView(r.agent().id(), r.agent().rolloutState().value(), VersionRef.of(r.current()),
                VersionRef.of(r.candidate()), r.agent().rolloutPercent(), r.agent().rolloutStepAt(),
                r.nextStepDueAt(), r.candidateFigures() == null ? null
                        : new Figures(Measured.of(r.currentFigures()), Measured.of(r.candidateFigures())),
                new Settings(s.step().toHours(), s.minCalls(), s.successMargin(), s.qualityMargin()),
                r.moves().stream().map(AgentEventView::from).toList());
    }
}
