package dev.atrium.marketplace.boundary.trust;

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
import dev.atrium.marketplace.control.trust.TrustService;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.TrustLevel;

/** An administrator's trust change after an audit (permission {@code agent:trust}), recorded in the history. */
@Path("v1/admin/agents/" + AgentsResource.ID + "/trust")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
@RequiresPermission(Requesters.TRUST)
public class AgentTrustResource {

    @EJB
    TrustService trust;

    @EJB
    AgentService agents;

    @Inject
    HttpServletRequest request;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Promote community → official after an audit, or demote; unverified → official is 409")
    public AgentView change(@PathParam("id") UUID id, @Valid @NotNull TrustRequest body) {
        Agent agent = trust.change(id, TrustLevel.of(body.level()), Callers.required(request).userId(), body.note());
        return AgentView.from(agent, agents.authors(List.of(agent)));
    }
}
