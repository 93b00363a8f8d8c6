package dev.atrium.platform.boundary.operations;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.platform.batch.BatchJobs;
import dev.atrium.platform.error.BusinessException;

/** Administrators start batch jobs on demand and follow their executions. */
@Path("admin/batch-jobs")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("admin")
@Tag(name = "operations")
public class BatchJobsResource {

    /** Spec 01's task object of a 202: where to follow the accepted work. */
    public record AcceptedTask(String id, String href) {
    }

    /**
     * One execution of a job; {@code instanceId} groups an execution with its restarts, {@code restartOf} names the
     * execution a restart continues.
     */
    public record ExecutionView(long id, long instanceId, String jobName, String status, String exitStatus,
                                Instant createdAt, Instant startedAt, Instant endedAt, Long restartOf,
                                List<StepView> steps, Map<String, String> _links) {

        static ExecutionView from(BatchJobs.Execution e) {
            return new ExecutionView(e.id(), e.instanceId(), e.jobName(), e.status(), e.exitStatus(), e.createdAt(),
                    e.startedAt(), e.endedAt(), e.restartOf(), e.steps().stream().map(StepView::from).toList(),
                    Map.of("self", "/admin/batch-executions/" + e.id()));
        }
    }

    /** A step of an execution with the runtime's counts. */
    public record StepView(String name, String status, long readCount, long writeCount, long commitCount) {

        static StepView from(BatchJobs.Step s) {
            return new StepView(s.name(), s.status(), s.readCount(), s.writeCount(), s.commitCount());
        }
    }

    /** A job's recent executions, newest first. */
    public record ExecutionsView(List<ExecutionView> data) {
    }

    /**
     * A job the application defines, when it runs by itself (and whether that schedule is paused now) and which
     * parameters a start may give.
     */
    public record JobView(String name, String description, String schedule, boolean schedulePaused,
                          Map<String, String> parameters, ExecutionView lastExecution) {
    }

    /** Every job, with its latest execution. */
    public record JobsView(List<JobView> data) {
    }

    /** The jobs in META-INF/batch-jobs and their EJB schedules (UTC); each schedule starts a job once per cluster. */
    static final List<JobView> CATALOGUE = List.of(
            new JobView("daily-usage-report", "AI usage per user and model for a day: CSV and JSON reports",
                    "daily at 00:15 UTC, for the day before", false, Map.of("date", "YYYY-MM-DD, default yesterday"), null),
            new JobView("daily-marketplace-report", "Marketplace calls and revenue split per agent for a day (CSV)",
                    "daily at 01:30 UTC, for the day before", false, Map.of("date", "YYYY-MM-DD, default yesterday"), null),
            new JobView("quality-scoring", "Quality score and ranking of every listed agent over 30 days",
                    "daily at 02:30 UTC", false, Map.of(), null),
            new JobView("agent-rescan", "Re-scans every listed agent (static scan, dependencies); a high finding "
                    + "suspends it (high_risk_finding) and records an incident",
                    "daily at 04:00 UTC, and within a minute of a change of the advisory data", false, Map.of(), null),
            new JobView("monthly-payout", "Pays developers their earnings for a month; writes the payout file",
                    "on the 1st of each month from 03:05 UTC (atrium.billing.payout.hour), for the month before",
                    false, Map.of("month", "YYYY-MM, default the previous month"), null));

    @Inject
    BatchJobs jobs;

    @GET
    @Operation(summary = "Every batch job with its schedule (paused or not: atrium.batch.schedules.paused), "
            + "parameters and latest execution")
    public JobsView list() {
        return new JobsView(CATALOGUE.stream().map(job -> new JobView(job.name(), job.description(), job.schedule(),
                jobs.schedulePaused(job.name()), job.parameters(), jobs.executions(job.name(), 1).stream().findFirst().map(ExecutionView::from)
                        .orElse(null))).toList());
    }

    @Context
    UriInfo uri;

    @GET
    @Path("{name}/executions")
    @Operation(summary = "The executions of the job's latest instances (default 20, at most 100), newest first; "
            + "a restart shares its instance with the execution it continues")
    @APIResponse(responseCode = "200", description = "{data: [execution]}")
    public ExecutionsView executions(@PathParam("name") String name,
                                     @QueryParam("instances") @DefaultValue("20") @Min(1) @Max(100) int instances) {
        return new ExecutionsView(jobs.executions(name, instances).stream().map(ExecutionView::from).toList());
    }

    @POST
    @Path("{name}/executions")
    @Operation(summary = "Start a batch job; query parameters become job parameters")
    @APIResponse(responseCode = "202", description = "Accepted",
            content = @Content(schema = @Schema(implementation = AcceptedTask.class)))
    public Response start(@PathParam("name") String name) {
        var parameters = new Properties();
        uri.getQueryParameters().forEach((k, v) -> parameters.setProperty(k, v.get(0)));
        long id = jobs.start(name, parameters);
        String href = "/admin/batch-executions/" + id;
        return Response.accepted(new AcceptedTask(Long.toString(id), href)).header("Location", href).build();
    }
}
