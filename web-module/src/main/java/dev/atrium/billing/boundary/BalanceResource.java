package dev.atrium.billing.boundary;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.billing.control.Balances;
import dev.atrium.billing.control.LedgerQueries;
import dev.atrium.billing.control.PayoutAccounts;
import dev.atrium.billing.control.Revenue;
import dev.atrium.identity.control.Callers;
import dev.atrium.marketplace.control.UsageQueries;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;
import dev.atrium.platform.error.BusinessException;

import java.time.YearMonth;
import java.time.ZoneOffset;

/** The caller's balance and statement. */
@Path("v1/me")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "billing")
public class BalanceResource {

    @EJB
    Balances balances;

    @EJB
    LedgerQueries ledger;

    @EJB
    Revenue revenue;

    @EJB
    PayoutAccounts payoutAccounts;

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

    @GET
    @Path("revenue")
    @Operation(summary = "The caller's revenue as a developer for a month (UTC; default the current one): calls, "
            + "gross, the 70 % share, per agent; pending and paid out")
    public RevenueView revenue(@QueryParam("month") String month) {
        var which = month == null || month.isBlank()
                ? YearMonth.now(ZoneOffset.UTC)
                : UsageQueries.month(month);
        return RevenueView.from(revenue.of(Callers.required(request).userId(), which));
    }

    @GET
    @Path("payout-account")
    @Operation(summary = "Where the caller's payouts go (IBAN masked); 404 until set")
    public PayoutAccountView payoutAccount() {
        return payoutAccounts.of(Callers.required(request).userId()).map(PayoutAccountView::from)
                .orElseThrow(() -> BusinessException.notFound("Payout account"));
    }

    @PUT
    @Path("payout-account")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Sets where the caller's payouts go: bank_transfer with an IBAN (checked against the IBAN "
            + "registry) and an optional BIC of the IBAN's country, or processor with a Stripe connected account")
    public PayoutAccountView putPayoutAccount(@Valid @NotNull
                                              PayoutAccountRequest body) {
        return PayoutAccountView.from(payoutAccounts.put(Callers.required(request).userId(), body.method(),
                body.holderName(), body.iban(), body.bic(), body.connectedAccount()));
    }
}
