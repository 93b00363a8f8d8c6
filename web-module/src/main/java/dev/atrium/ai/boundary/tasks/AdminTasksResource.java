package dev.atrium.ai.boundary.tasks;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.ai.control.tasks.TaskCleanup;
import dev.atrium.identity.control.RequiresPermission;

/** Operating the task store: the hourly cleanup of expired tasks, run on demand. */
@Path("api/admin/tasks")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "ai")
public class AdminTasksResource {

    /** How many expired tasks a cleanup deleted. */
    public record CleanupResult(int deleted) {
    }

    @EJB
    TaskCleanup cleanup;

    @POST
    @Path("cleanup")
    @RequiresPermission("admin")
    @Operation(summary = "Delete the expired tasks now, as the hourly cleanup does (permission admin)")
    public CleanupResult cleanup() {
        return new CleanupResult(cleanup.run());
    }
}
