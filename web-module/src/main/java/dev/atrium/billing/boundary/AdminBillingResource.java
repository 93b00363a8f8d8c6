package dev.atrium.billing.boundary;

import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
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
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.billing.control.AdminBilling;
import dev.atrium.billing.control.Balances;
import dev.atrium.identity.boundary.Callers;

/** Administrators' moves on balances, each a journal entry with who and why. */
@Path("v1/admin/billing")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "billing")
@RolesAllowed("admin")
public class AdminBillingResource {

    @Inject
    AdminBilling billing;

    @Inject
    Balances balances;

    @Inject
    dev.atrium.billing.control.Reconciliation reconciliation;

    @Inject
    HttpServletRequest request;

    @POST
    @Path("credits")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Credits a user's balance (whole cents, 1.00 to 10000.00) from promotions, with a reason")
    public Response credit(@Valid @NotNull CreditRequest body) {
        var entry = billing.credit(Callers.required(request).userId(), body.userId(), body.amount(), body.reason());
        return Response.status(201).entity(EntryView.from(entry)).build();
    }

    @POST
    @Path("refunds")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Refunds one billed usage record: its entry reversed, once")
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
    @Path("reconciliation")
    @Operation(summary = "A day's reconciliation (UTC): usage records against the ledger, balanced entries, cached "
            + "balances and holds; agrees true when all hold")
    public ReconciliationView reconciliation(@jakarta.ws.rs.QueryParam("date") String date) {
        java.time.LocalDate day;
        try {
            day = java.time.LocalDate.parse(date == null ? "" : date);
        } catch (java.time.format.DateTimeParseException e) {
            throw dev.atrium.platform.error.BusinessException.validation("date: a day as YYYY-MM-DD");
        }
        return ReconciliationView.from(reconciliation.of(day));
    }
}
