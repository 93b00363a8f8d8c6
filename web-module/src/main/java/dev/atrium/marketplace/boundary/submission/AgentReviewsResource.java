package dev.atrium.marketplace.boundary.submission;

import java.util.UUID;

import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.Callers;
import dev.atrium.marketplace.boundary.Requesters;
import dev.atrium.marketplace.boundary.registry.AgentsResource;
import dev.atrium.marketplace.control.registry.RatingService;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;

/** Users' reviews of an agent: written by its users (3 successful uses at least), read by anyone. */
@Path("v1/agents/" + AgentsResource.ID + "/reviews")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
public class AgentReviewsResource {

    @EJB
    RatingService ratings;

    @Inject
    HttpServletRequest request;

    @Context
    UriInfo uri;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Review a listed agent you used successfully at least 3 times; a second review replaces "
            + "the first, and the agent's average rating is recalculated")
    @APIResponse(responseCode = "201", description = "The new review",
            content = @Content(schema = @Schema(implementation = AgentReviewView.class)))
    @APIResponse(responseCode = "200", description = "The review, replacing your earlier one",
            content = @Content(schema = @Schema(implementation = AgentReviewView.class)))
    @APIResponse(responseCode = "403", description = "Fewer than 3 successful uses (code 40301), or your own agent")
    @APIResponse(responseCode = "404", description = "No listed agent with this id")
    public Response review(@PathParam("id") UUID id, @Valid @NotNull AgentReviewRequest body) {
        var written = ratings.review(id, Callers.required(request).userId(), body.rating().intValueExact(), body.comment());
        return Response.status(written.replaced() ? Response.Status.OK : Response.Status.CREATED)
                .entity(AgentReviewView.from(written.review())).build();
    }

    @GET
    @PermitAll
    @Operation(summary = "The agent's reviews, newest first; filters rating, verified_purchase; sort rating, "
            + "updated_at, created_at")
    @ListOf(AgentReviewView.class)
    public Object list(@PathParam("id") UUID id) {
        return Envelopes.of(ratings.reviews(id, Requesters.of(request), ListRequest.from(uri)), uri,
                AgentReviewView::from);
    }
}
