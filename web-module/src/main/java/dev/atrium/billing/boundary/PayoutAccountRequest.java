package dev.atrium.billing.boundary;

import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** Payout details: bank_transfer with an IBAN (and optional BIC), or processor with a Stripe connected account. */
public record PayoutAccountRequest(@NotBlank @Size(max = 20) String method,
                                   @JsonbProperty("holder_name") @NotBlank @Size(max = 140) String holderName,
                                   @Size(max = 64) String iban, @Size(max = 11) String bic,
                                   @JsonbProperty("connected_account") @Size(max = 64) String connectedAccount) {
}
