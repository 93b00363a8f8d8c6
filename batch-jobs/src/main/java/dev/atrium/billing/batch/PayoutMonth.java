package dev.atrium.billing.batch;

import java.time.YearMonth;

import dev.atrium.billing.control.Payouts;
import dev.atrium.marketplace.control.UsageQueries;

/** The job's month parameter: YYYY-MM, or the previous month when absent. */
final class PayoutMonth {

    private PayoutMonth() {
    }

    static YearMonth of(String parameter, Payouts payouts) {
        return parameter == null || parameter.isBlank() ? payouts.lastMonth() : UsageQueries.month(parameter);
    }
}
