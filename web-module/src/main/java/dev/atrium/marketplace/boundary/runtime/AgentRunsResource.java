package dev.atrium.marketplace.boundary.runtime;

import java.util.UUID;

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
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.marketplace.boundary.Requesters;
import dev.atrium.marketplace.control.runtime.RunService;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;

/**
 * An agent's runs for its author and reviewers: how they ended, never what callers sent or got, and logs only of the
 * viewer's own calls.
 */
@Path("v1/agents/{id: [0-9a-fA-F-]+}/runs")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
public class AgentRunsResource {

    @EJB
    RunService runs;

    @Inject
    HttpServletRequest request;

    @Context
    UriInfo uri;

    @GET
    @Operation(summary = "The agent's runs (author and agent:review): status, duration, exit reason and code; "
            + "never the caller's input or output; the masked log only of the viewer's own calls")
    @Parameter(name = "status", description = "succeeded, failed, timed_out, memory_limit, output_limit or killed")
    @Parameter(name = "version", description = "Only runs of this agent version")
    @ListOf(AgentRunView.class)
    public Object list(@PathParam("id") UUID id) {
        var requester = Requesters.of(request);
        return Envelopes.of(runs.ofAgent(id, requester, ListRequest.from(uri)), uri,
                run -> AgentRunView.from(run, requester.userId()));
    }
}
