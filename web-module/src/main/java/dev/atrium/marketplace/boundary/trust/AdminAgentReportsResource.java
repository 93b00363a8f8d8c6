package dev.atrium.marketplace.boundary.trust;

import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.marketplace.boundary.Requesters;
import dev.atrium.marketplace.boundary.registry.AgentsResource;
import dev.atrium.marketplace.control.trust.ReportService;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;

/** An agent's security reports, for the reviewers who act on them (permission {@code agent:review}). */
@Path("v1/admin/agents/" + AgentsResource.ID + "/reports")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
@RequiresPermission(Requesters.REVIEW)
public class AdminAgentReportsResource {

    @EJB
    ReportService reports;

    @Context
    UriInfo uri;

    @GET
    @Operation(summary = "The agent's security reports, newest first")
    @Parameter(name = "reason", description = "malicious_code, data_exfiltration, undeclared_access, "
            + "prompt_injection, credential_theft or other")
    @Parameter(name = "user_id", description = "The reporting user")
    @ListOf(AgentReportView.class)
    public Object list(@PathParam("id") UUID id) {
        return Envelopes.of(reports.list(id, ListRequest.from(uri)), uri, AgentReportView::from);
    }
}
