package dev.atrium.billing.boundary;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
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

import dev.atrium.billing.control.AdminBilling;
import dev.atrium.billing.control.Balances;
import dev.atrium.billing.control.LedgerQueries;
import dev.atrium.billing.control.MarketplaceReports;
import dev.atrium.billing.batch.PayoutSchedule;
import dev.atrium.billing.control.Payouts;
import dev.atrium.billing.control.Reconciliation;
import dev.atrium.identity.control.Callers;
import dev.atrium.marketplace.control.UsageQueries;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;
import dev.atrium.platform.error.BusinessException;

import java.time.LocalDate;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.Map;

/** Administrators' moves on balances, each a journal entry with who and why. */
@Path("v1/admin/billing")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "billing")
@RolesAllowed("admin")
public class AdminBillingResource {

    @EJB
    AdminBilling billing;

    @EJB
    Balances balances;

    @EJB
    Reconciliation reconciliation;

    @EJB
    Payouts payouts;

    @EJB
    PayoutSchedule payoutRuns;

    @EJB
    MarketplaceReports reports;

    @EJB
    LedgerQueries ledger;

    @Inject
    HttpServletRequest request;

    @Context
    UriInfo uri;

    @POST
    @Path("credits")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Credits a user's balance (whole cents, 1.00 to 10000.00) from promotions, with a reason")
    @APIResponse(responseCode = "201", description = "The posted entry",
            content = @Content(schema = @Schema(implementation = EntryView.class)))
    @APIResponse(responseCode = "404", description = "No such user")
    @APIResponse(responseCode = "422", description = "Amount not whole cents from 1.00 to 10000.00, or no reason")
    public Response credit(@Valid @NotNull CreditRequest body) {
        var entry = billing.credit(Callers.required(request).userId(), body.userId(), body.amount(), body.reason());
        return Response.status(201).entity(EntryView.from(entry)).build();
    }

    @POST
    @Path("refunds")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Refunds one billed usage record: its entry reversed, once")
    @APIResponse(responseCode = "201", description = "The reversing entry",
            content = @Content(schema = @Schema(implementation = EntryView.class)))
    @APIResponse(responseCode = "404", description = "No such usage record")
    @APIResponse(responseCode = "409", description = "Not charged, or refunded already (also by a racing refund)")
    public Response refund(@Valid @NotNull RefundRequest body) {
        var entry = billing.refund(Callers.required(request).userId(), body.usageId(), body.reason());
        return Response.status(201).entity(EntryView.from(entry)).build();
    }

    @GET
    @Path("balances/{user_id: [0-9]+}")
    @Operation(summary = "A user's balance")
    public BalanceView balance(@PathParam("user_id") long userId) {
        return BalanceView.from(balances.of(userId));
    }

    @GET
    @Path("ledgers/{user_id: [0-9]+}")
    @Operation(summary = "A user's statement, as GET /v1/me/ledger shows it to the user (list conventions)")
    @ListOf(StatementLineView.class)
    public Object ledger(@PathParam("user_id") long userId) {
        return Envelopes.of(ledger.statement(userId, ListRequest.from(uri)), uri, StatementLineView::from);
    }

    @GET
    @Path("reconciliation")
    @Operation(summary = "A day's (date=YYYY-MM-DD) or a month's (month=YYYY-MM) reconciliation (UTC): usage records "
            + "against the ledger, balanced entries, cached balances and holds; agrees true when all hold")
    public ReconciliationView reconciliation(@QueryParam("date") String date,
                                             @QueryParam("month") String month) {
        boolean byDay = date != null && !date.isBlank();
        boolean byMonth = month != null && !month.isBlank();
        if (byDay == byMonth) {
            throw BusinessException.validation(
                    "date or month: one of them, a day as YYYY-MM-DD or a month as YYYY-MM");
        }
        try {
            return ReconciliationView.from(byDay ? reconciliation.of(LocalDate.parse(date))
                    : reconciliation.of(YearMonth.parse(month)));
        } catch (DateTimeParseException e) {
            throw BusinessException.validation(byDay ? "date: a day as YYYY-MM-DD"
                    : "month: a calendar month as YYYY-MM");
        }
    }

    @POST
    @Path("payout-runs")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Starts the monthly-payout job for a month (default the previous one); 202 with the batch "
            + "execution. A month pays each developer once, whatever is run again")
    @APIResponse(responseCode = "202", description = "{execution_id, href, month}; the execution at href")
    @APIResponse(responseCode = "422", description = "month is not YYYY-MM")
    public Response startPayoutRun(PayoutRunRequest body) {
        String text = body == null ? null : body.month();
        var month = text == null || text.isBlank() ? payouts.lastMonth()
                : UsageQueries.month(text);
        long id = payoutRuns.start(month);
        String href = "/admin/batch-executions/" + id;
        return Response.accepted(Map.of("execution_id", Long.toString(id), "href", href, "month",
                month.toString())).header("Location", href).build();
    }

    @GET
    @Path("payout-runs/{month}")
    @Operation(summary = "A month's payouts: paid and carried counts, the total, each developer's outcome")
    public PayoutRunView payoutRun(@PathParam("month") String month) {
        var which = UsageQueries.month(month);
        return PayoutRunView.from(which.toString(), payouts.of(which));
    }

    @GET
    @Path("payout-runs/{month}/file")
    @Produces("application/xml")
    @Operation(summary = "The month's ISO 20022 pain.001.001.09 credit transfer file")
    @APIResponse(responseCode = "200", description = "The pain.001.001.09 XML",
            content = @Content(mediaType = "application/xml"))
    @APIResponse(responseCode = "404", description = "No file for that month")
    public Response payoutFile(@PathParam("month") String month) {
        var which = UsageQueries.month(month);
        var file = payouts.fileOf(which);
        return Response.ok(file.content(), "application/xml")
                .header("Content-Disposition", "attachment; filename=\"atrium-payouts-" + which + ".xml\"").build();
    }

    @GET
    @Path("reports/{date}.csv")
    @Produces("text/csv")
    @Operation(summary = "The daily marketplace report of a day (written by the daily-marketplace-report job)")
    @APIResponse(responseCode = "200", description = "agent_id, agent_name, calls, succeeded, gross, developer_share, "
            + "platform_share, model_cost; a TOTAL line last", content = @Content(mediaType = "text/csv"))
    @APIResponse(responseCode = "404", description = "No report for that day")
    public Response report(@PathParam("date") String date) {
        LocalDate day;
        try {
            day = LocalDate.parse(date);
        } catch (DateTimeParseException e) {
            throw BusinessException.validation("date: a day as YYYY-MM-DD");
        }
        var report = reports.report(day);
        return Response.ok(report.content(), "text/csv; charset=utf-8").header("Content-Disposition",
                "attachment; filename=\"atrium-marketplace-" + day + ".csv\"").build();
    }
}
