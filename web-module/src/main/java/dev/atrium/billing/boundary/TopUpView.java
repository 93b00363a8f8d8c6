package dev.atrium.billing.boundary;

import java.math.BigDecimal;
import java.time.Instant;

import jakarta.json.bind.annotation.JsonbProperty;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.billing.control.TopUps;
import dev.atrium.billing.entity.TopUp;

/**
 * A top-up: pending until its processor confirms it, then succeeded (and credited), or failed. {@code client_secret}
 * comes only in the answer that creates it, and only from a processor the payer completes the payment with (Stripe:
 * the PaymentIntent's client secret, for Stripe.js); it is not kept.
 */
@Schema(description = "A top-up of the caller's balance")
public record TopUpView(String id, BigDecimal amount, String status, String processor,
                        @JsonbProperty("created_at") Instant createdAt,
                        @JsonbProperty("confirmed_at") Instant confirmedAt,
                        @JsonbProperty("client_secret") String clientSecret) {

    public static TopUpView from(TopUp t) {
        return new TopUpView(t.id().toString(), t.amount(), t.status().value(), t.processor(), t.createdAt(),
                t.confirmedAt(), null);
    }

    public static TopUpView created(TopUps.Created c) {
        var t = c.topUp();
        return new TopUpView(t.id().toString(), t.amount(), t.status().value(), t.processor(), t.createdAt(),
                t.confirmedAt(), c.clientSecret());
    }
}
