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
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.Callers;
import dev.atrium.marketplace.control.runtime.RunService;

/** A run record, for the caller who made the run only (spec 03: execution records are the caller's). */
@Path("v1/runs")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
public class RunsResource {

    @EJB
    RunService runs;

    @Inject
    HttpServletRequest request;

    @GET
    @Path("{id: [0-9a-fA-F-]+}")
    @Operation(summary = "One of the caller's runs: input (masked), output, status, duration, exit reason, masked log, "
            + "its price and the invocation's, and the dependency calls it made with theirs",
            description = "Someone else's run is 404.")
    public RunView get(@PathParam("id") UUID id) {
        return RunView.from(runs.mineWithCharges(id, Callers.required(request).userId()));
    }
}
