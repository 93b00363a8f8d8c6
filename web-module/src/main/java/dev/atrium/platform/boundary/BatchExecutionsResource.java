package dev.atrium.platform.boundary;

import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.platform.batch.BatchJobs;
import dev.atrium.platform.error.BusinessException;

/** The executions of batch jobs, for administrators. */
@Path("admin/batch-executions")
@RequestScoped
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
}
