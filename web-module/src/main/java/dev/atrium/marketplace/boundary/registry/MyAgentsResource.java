package dev.atrium.marketplace.boundary.registry;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.marketplace.boundary.AgentView;
import dev.atrium.marketplace.boundary.Requesters;
import dev.atrium.marketplace.control.registry.AgentService;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;

/** A developer's own agents, in every status. */
@Path("v1/me/agents")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
public class MyAgentsResource {

    @EJB
    AgentService agents;

    @Inject
    HttpServletRequest request;

    @Context
    UriInfo uri;

    @GET
    @RequiresPermission(Requesters.PUBLISH)
    @Operation(summary = "The caller's agents in every status")
    @Parameter(name = "status", description = "pending, active, suspended or rejected")
    @Parameter(name = "category", description = "Category slug")
    @ListOf(AgentView.class)
    public Object list() {
        var listing = agents.mine(Callers.required(request).userId(), ListRequest.from(uri));
        var authors = agents.authors(listing.items());
        return Envelopes.of(listing, uri, a -> AgentView.from(a, authors));
    }
}
