package dev.atrium.marketplace.boundary.registry;

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
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.marketplace.boundary.Requesters;
import dev.atrium.marketplace.control.registry.AgentService;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;

/** An agent's versions. */
@Path("v1/agents/" + AgentsResource.ID + "/versions")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
public class AgentVersionsResource {

    @EJB
    AgentService agents;

    @Inject
    HttpServletRequest request;

    @Context
    UriInfo uri;

    @GET
    @PermitAll
    @Operation(summary = "The agent's versions, newest first: approved ones for everyone who may see the agent, "
            + "all of them for its author and reviewers")
    @ListOf(AgentVersionView.class)
    public Object versions(@PathParam("id") UUID id) {
        return Envelopes.of(agents.versions(id, Requesters.of(request), ListRequest.from(uri)), uri,
                AgentVersionView::from);
    }
}
