package dev.atrium.marketplace.boundary.trust;

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
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.Callers;
import dev.atrium.marketplace.boundary.registry.AgentsResource;
import dev.atrium.marketplace.control.trust.ReportService;
import dev.atrium.marketplace.entity.trust.ReportReason;

/**
 * Security reports by verified users who called the agent successfully; three from distinct users suspend it pending
 * review.
 */
@Path("v1/agents/" + AgentsResource.ID + "/reports")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
public class AgentReportsResource {

    @EJB
    ReportService reports;

    @Inject
    HttpServletRequest request;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Report a security problem with a listed agent you have called (one report per user until "
            + "the agent is approved or reinstated again; 403 without a successful call, 429 past 5 an hour)")
    @APIResponse(responseCode = "201", description = "Recorded",
            content = @Content(schema = @Schema(implementation = AgentReportView.class)))
    public Response report(@PathParam("id") UUID id, @Valid @NotNull AgentReportRequest body) {
        var report = reports.report(id, Callers.required(request).userId(), ReportReason.of(body.reason()),
                body.details());
        return Response.status(Response.Status.CREATED).entity(AgentReportView.from(report)).build();
    }
}
