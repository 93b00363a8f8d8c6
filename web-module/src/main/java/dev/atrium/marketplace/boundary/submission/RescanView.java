package dev.atrium.marketplace.boundary.submission;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.boundary.AgentView;
import dev.atrium.marketplace.control.submission.RescanService;

/** What a re-scan found, and whether it took the agent down. */
@Schema(description = "A re-scan's report")
public record RescanView(
        UUID agentId,
        String version,
        @Schema(enumeration = {"pending", "active", "suspended", "rejected"}) String status,
        @Schema(enumeration = {"unverified", "community", "official"}) String trustLevel,
        @Schema(description = "true when a high-risk finding suspended the agent (reason high_risk_finding)")
        boolean takenDown,
        List<CheckView> checks,
        Map<String, String> _links) {

    static RescanView from(RescanService.Rescan rescan) {
        var a = rescan.agent();
        return new RescanView(a.id(), a.version().toString(), a.status().value(), a.trustLevel().value(),
                rescan.takenDown(), CheckView.of(rescan.report()),
                Map.of("agent", AgentView.BASE + a.id(), "history", AgentView.BASE + a.id() + "/history"));
    }
}
