package dev.atrium.billing.boundary;

import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;

import jakarta.json.bind.annotation.JsonbProperty;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.billing.control.Reconciliation;

@Schema(description = "A day's or a month's reconciliation (UTC; date or month is set): charged usage records "
        + "against usage entries, balanced entries, "
        + "cached balances and held amounts, user balances below zero (by user id) and usage records charged above "
        + "the hold admission placed for them; the first 100 differences of each kind")
public record ReconciliationView(String date, String month, @JsonbProperty("usage_records") long usageRecords,
                                 @JsonbProperty("usage_charged") BigDecimal usageCharged,
                                 @JsonbProperty("usage_entries") long usageEntries,
                                 @JsonbProperty("entries_charged") BigDecimal entriesCharged,
                                 @JsonbProperty("unbilled_usage") List<String> unbilledUsage,
                                 @JsonbProperty("unbalanced_entries") long unbalancedEntries,
                                 @JsonbProperty("accounts_off_balance") List<String> accountsOffBalance,
                                 @JsonbProperty("accounts_off_held") List<String> accountsOffHeld,
                                 @JsonbProperty("negative_balances") List<Long> negativeBalances,
                                 @JsonbProperty("charges_above_hold") List<String> chargesAboveHold,
                                 boolean agrees) {

    public static ReconciliationView from(Reconciliation.Report r) {
        boolean month = r.period().length() == 7;
        return new ReconciliationView(month ? null : r.period(), month ? r.period() : null, r.usageRecords(),
                r.usageCharged(), r.usageEntries(), r.entriesCharged(), ids(r.unbilledUsage()), r.unbalancedEntries(),
                ids(r.accountsOffBalance()), ids(r.accountsOffHeld()), r.negativeBalances(),
                ids(r.chargesAboveHold()), r.agrees());
    }

    private static List<String> ids(List<UUID> ids) {
        return ids.stream().map(UUID::toString).toList();
    }
}
