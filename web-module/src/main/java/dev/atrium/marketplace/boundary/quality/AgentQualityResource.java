package dev.atrium.marketplace.boundary.quality;

import java.util.UUID;

import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.marketplace.boundary.Requesters;
import dev.atrium.marketplace.boundary.registry.AgentsResource;
import dev.atrium.marketplace.control.quality.QualityScoring;
import dev.atrium.marketplace.control.registry.AgentService;

/** An agent's measured quality, for whoever may see the agent. */
@Path("v1/agents/" + AgentsResource.ID + "/quality")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
public class AgentQualityResource {

    @EJB
    AgentService agents;

    @EJB
    QualityScoring scoring;

    @Inject
    HttpServletRequest request;

    @GET
    @PermitAll
    @Operation(summary = "The agent's quality over the window (default 30 days) as the daily quality-scoring job "
            + "last measured it: quality_score, success_rate, avg_latency_s, avg_cost_usd, total_calls")
    public QualityView quality(@PathParam("id") UUID id) {
        var agent = agents.get(id, Requesters.of(request));
        return QualityView.of(agent, scoring.figures(id).orElse(null), scoring.windowDays());
    }
}
