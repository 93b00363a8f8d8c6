package dev.atrium.billing.boundary;

import java.math.BigDecimal;

import jakarta.json.bind.annotation.JsonbProperty;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.billing.control.Balances;
import dev.atrium.billing.entity.Money;

/** A user's balance: what the ledger holds for them, the part reserved for calls in flight, what may be spent. */
@Schema(description = "A user's balance in USD, 6 decimals")
public record BalanceView(@JsonbProperty("user_id") String userId, BigDecimal balance, BigDecimal held,
                          BigDecimal available, String currency) {

    public static BalanceView from(Balances.Balance b) {
        return new BalanceView(Long.toString(b.userId()), b.balance(), b.held(), b.available(), Money.CURRENCY);
    }
}
