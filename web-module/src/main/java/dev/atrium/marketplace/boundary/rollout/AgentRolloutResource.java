package dev.atrium.marketplace.boundary.rollout;

import java.util.UUID;

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
import dev.atrium.marketplace.control.rollout.RolloutService;

/** An agent's rollout, for its author and reviewers. */
@Path("v1/agents/" + AgentsResource.ID + "/rollout")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
public class AgentRolloutResource {

    @EJB
    RolloutService rollouts;

    @Inject
    HttpServletRequest request;

    @GET
    @Operation(summary = "The rollout of the agent's next version (author and agent:review): state, versions, "
            + "share of callers, step and its due time, each version's figures since the step began, recent moves")
    public RolloutView rollout(@PathParam("id") UUID id) {
        return RolloutView.from(rollouts.rollout(id, Requesters.of(request)));
    }
}
