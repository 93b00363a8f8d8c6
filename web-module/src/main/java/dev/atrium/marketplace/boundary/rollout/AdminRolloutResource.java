package dev.atrium.marketplace.boundary.rollout;

import java.util.List;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.marketplace.boundary.AgentView;
import dev.atrium.marketplace.boundary.Requesters;
import dev.atrium.marketplace.boundary.registry.AgentsResource;
import dev.atrium.marketplace.control.registry.AgentService;
import dev.atrium.marketplace.control.rollout.RolloutService;
import dev.atrium.marketplace.entity.Agent;

/** A reviewer's moves on an agent's rollout (permission {@code agent:review}), each recorded with its note. */
@Path("v1/admin/agents/" + AgentsResource.ID + "/rollout")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
@RequiresPermission(Requesters.REVIEW)
public class AdminRolloutResource {

    @EJB
    RolloutService rollouts;

    @EJB
    AgentService agents;

    @Inject
    HttpServletRequest request;

    @POST
    @Path("pause")
    @Operation(summary = "Holds the candidate's share of callers; the rollout does not advance until resumed")
    public AgentView pause(@PathParam("id") UUID id, @Valid @NotNull RolloutNoteRequest body) {
        return view(rollouts.pause(id, admin(), body.note()));
    }

    @POST
    @Path("resume")
    @Operation(summary = "Resumes a paused rollout; its step starts over")
    public AgentView resume(@PathParam("id") UUID id, @Valid @NotNull RolloutNoteRequest body) {
        return view(rollouts.resume(id, admin(), body.note()));
    }

    @POST
    @Path("promote")
    @Operation(summary = "The next step now (10 % → 50 % → every caller), whatever the figures say")
    public AgentView promote(@PathParam("id") UUID id, @Valid @NotNull RolloutNoteRequest body) {
        return view(rollouts.promote(id, admin(), body.note()));
    }

    @POST
    @Path("rollback")
    @Operation(summary = "Drops the candidate: the current version serves every caller again")
    public AgentView rollback(@PathParam("id") UUID id, @Valid @NotNull RolloutNoteRequest body) {
        return view(rollouts.rollBack(id, admin(), body.note()));
    }

    private long admin() {
        return Callers.required(request).userId();
    }

    private AgentView view(Agent agent) {
        return AgentView.from(agent, agents.authors(List.of(agent)));
    }
}
