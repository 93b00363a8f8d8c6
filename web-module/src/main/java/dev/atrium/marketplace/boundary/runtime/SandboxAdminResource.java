package dev.atrium.marketplace.boundary.runtime;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.marketplace.control.runtime.SandboxHealth;

/** {@code GET /admin/sandbox}: the agent sandbox for the operators' console (administrators only). */
@Path("admin/sandbox")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("admin")
@Tag(name = "operations")
public class SandboxAdminResource {

    /** What the executor found it can enforce on this machine, and the problems in words. */
    public record EnforcementView(String adapter, boolean namespaces, boolean memoryLimit, boolean cpuLimit,
                                  boolean processLimit, String cgroupVersion, boolean domainFiltering,
                                  boolean networkAudit, List<String> problems) {
    }

    /** The limits of every run; memory and time come from the agent's card, within its trust level's ceiling. */
    public record RunLimitsView(int cpuPercent, int maxProcesses, long maxStdoutBytes, long maxStderrBytes,
                                long tmpBytes, int defaultMemoryMb, int defaultTimeoutS) {
    }

    /** A trust level's ceiling. */
    public record CeilingView(String trustLevel, boolean network, int memoryMb, int timeoutS,
                              @Schema(description = "The most of one CPU a run may use, in percent") int cpuPercent) {
    }

    /** The sandbox: its health phrase, its enforcement (null when it cannot start), its limits and ceilings. */
    public record SandboxView(String status, EnforcementView enforcement, RunLimitsView limits,
                              List<CeilingView> ceilings) {

        static SandboxView from(SandboxHealth.Report r) {
            var enforcement = r.capabilities().map(c -> new EnforcementView(c.adapter(), c.namespaces(),
                    c.memoryLimit(), c.cpuLimit(), c.processLimit(), c.cgroupVersion(), c.domainFiltering(),
                    c.networkAudit(), c.problems())).orElse(null);
            var runs = r.runs();
            var limits = new RunLimitsView(runs.cpuPercent(), runs.maxProcesses(), runs.maxStdoutBytes(),
                    runs.maxStderrBytes(), runs.tmpBytes(), r.defaultMemoryMb(), r.gatewayTimeoutS());
            var ceilings = r.ceilings().stream().map(c -> new CeilingView(c.trustLevel().value(),
                    c.ceiling().network(), c.ceiling().memoryMb(), c.ceiling().timeoutS(), c.ceiling().cpuPercent())).toList();
            return new SandboxView(r.status(), enforcement, limits, ceilings);
        }
    }

    @Inject
    SandboxHealth sandbox;

    @GET
    @Operation(summary = "The agent sandbox: what this machine enforces, the limits of a run and each trust level's "
            + "ceiling")
    public SandboxView get() {
        return SandboxView.from(sandbox.report());
    }
}
