package dev.atrium.marketplace.boundary.installations;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.boundary.AgentView;
import dev.atrium.marketplace.entity.AgentInstallation;

/** A user's installation of an agent. */
@Schema(description = "An installation of an agent by the caller")
public record InstallationView(
        UUID id,
        UUID agentId,
        @Schema(description = "When the agent was (last) installed") Instant installedAt,
        Map<String, String> _links) {

    static InstallationView from(AgentInstallation i) {
        return new InstallationView(i.id(), i.agentId(), i.installedAt(),
                Map.of("agent", AgentView.BASE + i.agentId(),
                        "installation", AgentView.BASE + i.agentId() + "/installations"));
    }
}
