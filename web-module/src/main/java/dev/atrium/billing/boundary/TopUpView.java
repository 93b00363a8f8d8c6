package dev.atrium.billing.boundary;

import java.math.BigDecimal;
import java.time.Instant;

import jakarta.json.bind.annotation.JsonbProperty;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.billing.entity.TopUp;

/** A top-up: pending until its processor confirms it, then succeeded (and credited). */
@Schema(description = "A top-up of the caller's balance")
public record TopUpView(String id, BigDecimal amount, String status, String processor,
                        @JsonbProperty("created_at") Instant createdAt,
                        @JsonbProperty("confirmed_at") Instant confirmedAt) {

    public static TopUpView from(TopUp t) {
        return new TopUpView(t.id().toString(), t.amount(), t.status().value(), t.processor(), t.createdAt(),
                t.confirmedAt());
    }
}
