package dev.atrium.billing.boundary;

import java.util.UUID;

import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** An administrator's refund of one billed usage record, with the reason the ledger keeps. */
public record RefundRequest(@JsonbProperty("usage_id") @NotNull UUID usageId, @NotBlank @Size(max = 500) String reason) {
}
