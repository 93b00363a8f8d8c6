package dev.atrium.billing.boundary;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.billing.control.Balances;
import dev.atrium.billing.control.LedgerQueries;
import dev.atrium.identity.boundary.Callers;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;

/** The caller's balance and statement. */
@Path("v1/me")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "billing")
public class BalanceResource {

    @Inject
    Balances balances;

    @Inject
    LedgerQueries ledger;

    @Inject
    HttpServletRequest request;

    @Context
    UriInfo uri;

    @GET
    @Path("balance")
    @Operation(summary = "The caller's balance, the part held for calls in flight and what may be spent (USD)")
    public BalanceView balance() {
        return BalanceView.from(balances.of(Callers.required(request).userId()));
    }

    @GET
    @Path("ledger")
    @Operation(summary = "The caller's statement: each movement of their balance with its journal entry, newest "
            + "first (list conventions)")
    @ListOf(StatementLineView.class)
    public Object statement() {
        return Envelopes.of(ledger.statement(Callers.required(request).userId(), ListRequest.from(uri)), uri,
                StatementLineView::from);
    }
}
