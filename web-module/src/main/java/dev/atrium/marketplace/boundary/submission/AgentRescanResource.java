package dev.atrium.marketplace.boundary.submission;

import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.marketplace.boundary.Requesters;
import dev.atrium.marketplace.boundary.registry.AgentsResource;
import dev.atrium.marketplace.control.submission.RescanService;

/** An administrator's re-scan of an agent's stored bundle with the pre-listing checks ({@code agent:review}). */
@Path("v1/admin/agents/" + AgentsResource.ID + "/rescan")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
@RequiresPermission(Requesters.REVIEW)
public class AgentRescanResource {

    @EJB
    RescanService rescans;

    @Inject
    HttpServletRequest request;

    @POST
    @Operation(summary = "Re-scan the agent's current version with the pre-listing checks",
            description = "Runs the checks on the stored bundle (fetched from the object store). A high-risk finding "
                    + "takes a pending or listed agent down (suspended, reason high_risk_finding) and records a "
                    + "security incident (demoted to unverified). Recorded in the history either way.")
    @APIResponse(responseCode = "200", description = "The report, and whether the agent was taken down")
    @APIResponse(responseCode = "404", description = "No such agent")
    public RescanView rescan(@PathParam("id") UUID id) {
        return RescanView.from(rescans.rescan(id, Callers.required(request).userId()));
    }
}
