package dev.atrium.ai.boundary.tasks;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Validator;
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
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.ai.control.QuotaService;
import dev.atrium.ai.control.tasks.TaskService;
import dev.atrium.ai.entity.Task;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.PathIds;
import dev.atrium.platform.boundary.openapi.ListOf;
import dev.atrium.platform.error.BusinessException;

/**
 * Spec 02's asynchronous tasks: a submission is answered at once with the task's id, and its owner polls for the
 * status. Submitting is a chat operation (permission {@code chat}) and, as for chat, the tier's quota is checked
 * before anything else, the body included; reading needs only to be the task's owner.
 */
@Path("api/tasks")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "ai")
public class TasksResource {

    @EJB
    TaskService tasks;

    @Inject
    QuotaService quotas;

    @Inject
    Validator validator;

    @Inject
    HttpServletRequest request;

    @Context
    UriInfo uri;

    @POST
    @Path("submit")
    @RequiresPermission("chat")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Submit a generation task; answered at once, the result is polled at href",
            description = "The quota check runs first (403 model not allowed for the tier, 429 daily quota used "
                    + "up), then validation (prompt 1 to 10000 characters). The task is kept 3600 s after it "
                    + "finishes.")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = TaskRequest.class)))
    @APIResponse(responseCode = "202", description = "Accepted: the task is queued",
            content = @Content(schema = @Schema(implementation = TaskAccepted.class)))
    public Response submit(TaskRequest body) {
        long userId = Callers.required(request).userId();
        var admission = quotas.admit(userId, body == null ? null : body.model());
        if (body == null) {
            throw BusinessException.validation("body: must not be null");
        }
        var violations = validator.validate(body);
        if (!violations.isEmpty()) {
            throw new ConstraintViolationException(violations);
        }
        Task task = tasks.submit(userId, admission.model().id(), body.prompt());
        String id = task.id().toString();
        return Response.accepted(new TaskAccepted(id, task.status().value(), id, TaskView.BASE + id))
                .header("Location", TaskView.BASE + id).build();
    }

    @GET
    @Path("{task_id}")
    @Operation(summary = "The status of one of the caller's tasks, with its result, error or progress")
    public TaskView get(@PathParam("task_id") @Parameter(description = "The task_id the submission answered")
                        String taskId) {
        return TaskView.from(tasks.find(Callers.required(request).userId(), PathIds.uuid(taskId, "Task")));
    }

    @GET
    @Operation(summary = "The caller's tasks still kept, newest first; filters status, model; search in the prompt")
    @Parameter(name = "status", description = "submitted, running, PROGRESS, success, failure; several separated "
            + "by commas")
    @Parameter(name = "model", description = "Model identifier")
    @ListOf(TaskView.class)
    public Object list() {
        return Envelopes.of(tasks.list(Callers.required(request).userId(), ListRequest.from(uri)), uri,
                TaskView::from);
    }
}
