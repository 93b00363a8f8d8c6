package dev.atrium.billing.boundary;

import java.math.BigDecimal;

import jakarta.validation.constraints.NotNull;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** How much to add to one's balance. */
public record TopUpRequest(
        @NotNull @Schema(description = "USD, whole cents, 1.00 to 10000.00") BigDecimal amount) {
}
