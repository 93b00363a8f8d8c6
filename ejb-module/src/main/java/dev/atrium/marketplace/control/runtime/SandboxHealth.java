package dev.atrium.marketplace.control.runtime;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.atrium.marketplace.entity.TrustLevel;
import dev.atrium.platform.health.HealthPart;
import dev.atrium.sandbox.Executor;
import dev.atrium.sandbox.Limits;
import dev.atrium.sandbox.SandboxCapabilities;

/**
 * The sandbox in one phrase for {@code /health}: {@code ok} when every limit can be enforced on this machine, else
 * {@code unavailable: <problems>} (untrusted agents are then refused, never run unlimited); and in full for the
 * operators ({@link #report()}): what this machine enforces, the limits every run has and each trust level's ceiling.
 */
@ApplicationScoped
public class SandboxHealth implements HealthPart {

    @Inject
    Executor executor;

    /** One trust level's ceiling (AgentLimits). */
    public record TrustCeiling(TrustLevel trustLevel, AgentLimits.Ceiling ceiling) {
    }

    /**
     * The sandbox for the operators' console: {@link #describe()}, what the executor found it can enforce (empty when
     * it cannot start), the limits of every run (memory and time come from the card within the ceilings) and the
     * ceilings per trust level.
     */
    public record Report(String status, Optional<SandboxCapabilities> capabilities, Limits runs, int defaultMemoryMb,
                         int gatewayTimeoutS, List<TrustCeiling> ceilings) {
    }

    public Report report() {
        Optional<SandboxCapabilities> capabilities;
        try {
            capabilities = Optional.of(executor.capabilities());
        } catch (RuntimeException e) {
            capabilities = Optional.empty();
        }
        var ceilings = Arrays.stream(TrustLevel.values())
                .map(level -> new TrustCeiling(level, AgentLimits.ceiling(level))).toList();
        return new Report(describe(), capabilities, Limits.DEFAULTS, AgentLimits.DEFAULT_MEMORY_MB,
                AgentLimits.GATEWAY_TIMEOUT_S, ceilings);
    }

    @Override
    public String name() {
        return "sandbox";
    }

    @Override
    public String describe() {
        try {
            var capabilities = executor.capabilities();
            if (capabilities.canRunUntrusted()) {
                return "ok";
            }
            return "unavailable: " + (capabilities.problems().isEmpty() ? "limits cannot be enforced"
                    : String.join("; ", capabilities.problems()));
        } catch (RuntimeException e) {
            return "unavailable: the sandbox cannot start (" + e.getClass().getSimpleName() + ")";
        }
    }
}
