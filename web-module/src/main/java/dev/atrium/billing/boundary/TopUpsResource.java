package dev.atrium.billing.boundary;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
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

import dev.atrium.billing.control.StripeEvents;
import dev.atrium.billing.control.StripeProcessor;
import dev.atrium.billing.control.TopUps;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.CsrfExempt;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.webhook.WebhookSignature;

/** Adding money to one's balance, and the payment processor's confirmations. */
@Path("v1/billing")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "billing")
public class TopUpsResource {

    static final int WEBHOOK_MAX_BYTES = 64 * 1024;

    @EJB
    TopUps topUps;

    @EJB
    StripeEvents stripeEvents;

    @Inject
    HttpServletRequest request;

    @POST
    @Path("top-ups")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Creates a top-up with the configured processor: the embedded one (development) credits "
            + "at once; a real one when its signed webhook confirms the payment")
    @APIResponse(responseCode = "201", description = "The top-up, with Location",
            content = @Content(schema = @Schema(implementation = TopUpView.class)))
    @APIResponse(responseCode = "422", description = "amount not whole cents from 1.00 to 10000.00")
    @APIResponse(responseCode = "502", description = "The payment processor refused the top-up; none is kept")
    @APIResponse(responseCode = "503", description = "The payment processor cannot be reached; none is kept")
    @APIResponse(responseCode = "504", description = "Code 30002, payment timed out: the processor did not answer "
            + "in time; none is kept and nothing was charged, so the payer may try again")
    public Response create(@Valid @NotNull TopUpRequest body) {
        var created = topUps.create(Callers.required(request).userId(), body.amount());
        return Response.created(URI.create("/v1/billing/top-ups/" + created.topUp().id()))
                .entity(TopUpView.created(created)).build();
    }

    @GET
    @Path("top-ups/{id: [0-9a-fA-F-]+}")
    @Operation(summary = "One of the caller's top-ups")
    public TopUpView get(@PathParam("id") UUID id) {
        return TopUpView.from(topUps.mine(Callers.required(request).userId(), id));
    }

    @POST
    @Path("webhooks/top-ups")
    @PermitAll
    @CsrfExempt
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "The callback of the webhook processor, signed in " + WebhookSignature.HEADER
            + " (t=<unix seconds>,v1=<HMAC-SHA256 hex of \"<t>.\" + body>); top_up.succeeded credits the top-up once, "
            + "top_up.failed fails a pending one")
    public Map<String, Object> webhook(@HeaderParam(WebhookSignature.HEADER) String signature, InputStream body)
            throws IOException {
        return Map.of("received", true, "credited", topUps.webhook(TopUps.WEBHOOK, read(body), signature));
    }

    @POST
    @Path("webhooks/stripe")
    @PermitAll
    @CsrfExempt
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Stripe's webhook endpoint, signed in Stripe-Signature with the endpoint secret; "
            + "payment_intent.succeeded credits the top-up in its metadata once, payment_intent.canceled fails it; "
            + "transfer.created or transfer.paid confirms the payout in its metadata (payout: paid), transfer.failed "
            + "or a full transfer.reversed fails it and posts its money back to the earnings once (payout: failed); "
            + "other events are acknowledged")
    public Map<String, Object> stripe(@HeaderParam(StripeProcessor.HEADER) String signature, InputStream body)
            throws IOException {
        var received = stripeEvents.receive(read(body), signature);
        var answer = new LinkedHashMap<String, Object>();
        answer.put("received", true);
        answer.put("credited", received.credited());
        if (received.payout() != null) {
            answer.put("payout", received.payout());
        }
        return answer;
    }

    private static byte[] read(InputStream body) throws IOException {
        byte[] raw = body.readNBytes(WEBHOOK_MAX_BYTES + 1);
        if (raw.length > WEBHOOK_MAX_BYTES) {
            throw BusinessException.badRequest("A webhook body is at most " + WEBHOOK_MAX_BYTES + " bytes");
        }
        return raw;
    }
}
