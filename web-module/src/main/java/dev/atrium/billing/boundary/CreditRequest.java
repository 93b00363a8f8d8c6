package dev.atrium.billing.boundary;

import java.math.BigDecimal;

import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/** An administrator's credit to a user's balance, with the reason the ledger keeps. */
public record CreditRequest(@JsonbProperty("user_id") @NotNull @Positive Long userId, @NotNull BigDecimal amount,
                            @NotBlank @Size(max = 500) String reason) {
}
