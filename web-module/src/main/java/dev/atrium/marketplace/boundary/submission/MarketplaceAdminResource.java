package dev.atrium.marketplace.boundary.submission;

import java.util.List;
import java.util.Locale;
import java.util.UUID;

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
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.marketplace.boundary.AgentView;
import dev.atrium.marketplace.boundary.Requesters;
import dev.atrium.marketplace.boundary.registry.AgentsResource;
import dev.atrium.marketplace.control.registry.AgentService;
import dev.atrium.marketplace.control.submission.ReviewService;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.trust.TakedownReason;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;

/** Human review of submissions, manual takedown and reinstatement (permission {@code agent:review}). */
@Path("v1/admin")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
@RequiresPermission(Requesters.REVIEW)
public class MarketplaceAdminResource {

    @EJB
    ReviewService reviews;

    @EJB
    AgentService agents;

    @Inject
    HttpServletRequest request;

    @Context
    UriInfo uri;

    @GET
    @Path("submissions")
    @Operation(summary = "Submissions, newest first; status=pending_review for the review queue")
    @Parameter(name = "status", description = "pending_review, approved, rejected or superseded")
    @Parameter(name = "agent_id", description = "The agent's id")
    @Parameter(name = "author_id", description = "The author's user id")
    @Parameter(name = "name", description = "The agent's name")
    @ListOf(SubmissionView.class)
    public Object submissions() {
        return Envelopes.of(reviews.submissions(ListRequest.from(uri)), uri, SubmissionView::from);
    }

    @POST
    @Path("agents/" + AgentsResource.ID + "/approve")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Approve a pending agent: it becomes active and searchable")
    public AgentView approve(@PathParam("id") UUID id, @Valid @NotNull ApproveRequest body) {
        return view(reviews.approve(id, reviewer(), body.note()));
    }

    @POST
    @Path("agents/" + AgentsResource.ID + "/reject")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Reject a pending agent with reasons; its author may resubmit a new version")
    public AgentView reject(@PathParam("id") UUID id, @Valid @NotNull RejectRequest body) {
        return view(reviews.reject(id, reviewer(), body.reasons()));
    }

    @POST
    @Path("agents/" + AgentsResource.ID + "/takedown")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Take a listed agent down (suspended) for one of the spec's manual reasons")
    public AgentView takedown(@PathParam("id") UUID id, @Valid @NotNull TakedownRequest body) {
        TakedownReason reason = TakedownReason.valueOf(body.reason().toUpperCase(Locale.ROOT));
        return view(reviews.takeDown(id, reviewer(), reason, body.details()));
    }

    @POST
    @Path("agents/" + AgentsResource.ID + "/reinstate")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Lift a takedown after review: suspended → active with its trust level as it is; "
            + "security reports count afresh")
    public AgentView reinstate(@PathParam("id") UUID id, @Valid @NotNull ReinstateRequest body) {
        return view(reviews.reinstate(id, reviewer(), body.note()));
    }

    private long reviewer() {
        return Callers.required(request).userId();
    }

    private AgentView view(Agent agent) {
        return AgentView.from(agent, agents.authors(List.of(agent)));
    }
}
