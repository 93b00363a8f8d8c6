package dev.atrium.billing.boundary;

import java.time.Instant;

import jakarta.json.bind.annotation.JsonbProperty;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.billing.entity.PayoutAccount;

@Schema(description = "Where the caller's payouts go; the IBAN is shown masked")
public record PayoutAccountView(String method, @JsonbProperty("holder_name") String holderName,
                                @JsonbProperty("iban") String maskedIban, String bic,
                                @JsonbProperty("connected_account") String connectedAccount,
                                @JsonbProperty("updated_at") Instant updatedAt) {

    public static PayoutAccountView from(PayoutAccount a) {
        return new PayoutAccountView(a.method().value(), a.holderName(), a.maskedIban(), a.bic(),
                a.connectedAccount(), a.updatedAt());
    }
}
