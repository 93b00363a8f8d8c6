package dev.atrium.billing.boundary;

import java.math.BigDecimal;

import jakarta.json.bind.annotation.JsonbProperty;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.billing.entity.Iban;
import dev.atrium.billing.entity.Payout;

@Schema(description = "One developer's outcome of a month's payout run (IBAN masked)")
public record PayoutView(String id, @JsonbProperty("developer_id") String developerId, BigDecimal amount,
                         String status, String method, @JsonbProperty("iban") String maskedIban,
                         @JsonbProperty("connected_account") String connectedAccount,
                         @JsonbProperty("transfer_id") String transferId, String reason) {

    public static PayoutView from(Payout p) {
        return new PayoutView(p.id().toString(), Long.toString(p.developerId()), p.amount(), p.status().value(),
                p.method(), p.iban() == null ? null : new Iban(p.iban()).masked(), p.connectedAccount(),
                p.transferId(), p.reason());
    }
}
