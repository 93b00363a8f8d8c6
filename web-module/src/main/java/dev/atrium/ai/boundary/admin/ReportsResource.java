package dev.atrium.ai.boundary.admin;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
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

import dev.atrium.ai.batch.UsageReportSchedule;
import dev.atrium.ai.control.UsageReports;
import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.platform.boundary.ListEnvelope;
import dev.atrium.platform.error.BusinessException;

/** The daily usage reports: listing, downloading, and producing one on demand. */
@Path("api/admin/reports")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "ai-admin")
@RequiresPermission("admin")
public class ReportsResource {

    /** A report file. */
    public record ReportView(String name, String date, String format, Map<String, String> _links) {
    }

    /** Which day to report; yesterday (UTC) when absent. */
    public record ReportRequest(String date) {
    }

    /** Spec 01's task object for accepted work: where to follow it. */
    public record ReportTask(String id, String href, String date) {
    }

    @EJB
    UsageReports reports;

    @EJB
    UsageReportSchedule schedule;

    @Inject
    Clock clock;

    @GET
    @Operation(summary = "The daily usage reports written so far (CSV and JSON per day), newest first")
    public ListEnvelope<ReportView> list() {
        List<ReportView> items = reports.names().stream().map(n -> new ReportView(n, n.substring(0, 10),
                n.substring(11), Map.of("self", "/api/admin/reports/" + n))).toList();
        return new ListEnvelope<>(items, items.size(), 1, Math.max(1, items.size()),
                Map.of("self", "/api/admin/reports"));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Produce the report of a day now (the batch job also runs daily at 00:15 UTC)")
    @APIResponse(responseCode = "202", description = "Started",
            content = @Content(schema = @Schema(implementation = ReportTask.class)))
    public Response start(@Valid ReportRequest body) {
        LocalDate day;
        try {
            day = body == null || body.date() == null || body.date().isBlank()
                    ? LocalDate.now(clock.withZone(ZoneOffset.UTC)).minusDays(1) : LocalDate.parse(body.date());
        } catch (DateTimeParseException e) {
            throw BusinessException.validation("date: YYYY-MM-DD");
        }
        long execution = schedule.start(day);
        String href = "/admin/batch-executions/" + execution;
        return Response.accepted(new ReportTask(Long.toString(execution), href, day.toString()))
                .header("Location", href).build();
    }

    @GET
    @Path("{name}")
    @Produces({"text/csv", MediaType.APPLICATION_JSON})
    @Operation(summary = "Download a report: <date>.csv or <date>.json")
    @APIResponse(responseCode = "200", description = "The report file")
    public Response download(@PathParam("name") String name) {
        var stored = reports.read(name).orElseThrow(() -> BusinessException.notFound("Report"));
        return Response.ok(stored.content(), stored.contentType()).header("Content-Length", stored.size()).build();
    }
}
