package dev.atrium.platform.boundary.operations;

import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.platform.batch.BatchJobs;
import dev.atrium.platform.error.BusinessException;

/** The executions of batch jobs, for administrators. */
@Path("admin/batch-executions")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("admin")
@Tag(name = "operations")
public class BatchExecutionsResource {

    @Inject
    BatchJobs jobs;

    @GET
    @Path("{id: \\d+}")
    @Operation(summary = "The state of a job execution")
    public BatchJobsResource.ExecutionView execution(@PathParam("id") long id) {
        return jobs.execution(id).map(BatchJobsResource.ExecutionView::from)
                .orElseThrow(() -> BusinessException.notFound("Batch execution"));
    }

    @POST
    @Path("{id: \\d+}/restart")
    @Operation(summary = "Restart a failed or stopped execution, or one its process left behind, from its last "
            + "checkpoint, as a new execution of the same job instance")
    @APIResponse(responseCode = "202", description = "{id, href} of the new execution")
    @APIResponse(responseCode = "404", description = "No such execution")
    @APIResponse(responseCode = "409", description = "Completed, abandoned, still running, or not the latest of its "
            + "instance")
    public Response restart(@PathParam("id") long id) {
        long restarted = jobs.restart(id);
        String href = "/admin/batch-executions/" + restarted;
        return Response.accepted(new BatchJobsResource.AcceptedTask(Long.toString(restarted), href))
                .header("Location", href).build();
    }

    @POST
    @Path("{id: \\d+}/stop")
    @Operation(summary = "Stop a running execution at its next checkpoint; restart continues from there")
    @APIResponse(responseCode = "200", description = "The execution, STOPPING or STOPPED")
    @APIResponse(responseCode = "404", description = "No such execution")
    @APIResponse(responseCode = "409", description = "Not running")
    public BatchJobsResource.ExecutionView stop(@PathParam("id") long id) {
        return BatchJobsResource.ExecutionView.from(jobs.stop(id));
    }
}
