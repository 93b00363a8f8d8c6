package dev.atrium.billing.boundary;

import java.math.BigDecimal;
import java.util.List;

import jakarta.json.bind.annotation.JsonbProperty;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.billing.entity.Money;
import dev.atrium.billing.entity.Payout;

@Schema(description = "A month's payout run: counts, the total paid, the payouts and the bank file's address")
public record PayoutRunView(String month, long paid, long carried, @JsonbProperty("total_paid") BigDecimal totalPaid,
                            @JsonbProperty("file") String file, List<PayoutView> payouts) {

    public static PayoutRunView from(String month, List<Payout> payouts) {
        long paid = payouts.stream().filter(p -> p.status().paid()).count();
        BigDecimal total = payouts.stream().filter(p -> p.status().paid()).map(Payout::amount)
                .reduce(Money.ZERO, BigDecimal::add);
        boolean filed = payouts.stream().anyMatch(p -> p.status() == Payout.Status.FILED);
        return new PayoutRunView(month, paid, payouts.size() - paid, total,
                filed ? "/v1/admin/billing/payout-runs/" + month + "/file" : null,
                payouts.stream().map(PayoutView::from).toList());
    }
}
