package dev.atrium.billing.batch;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import dev.atrium.billing.control.PayoutTransfers;
import dev.atrium.billing.control.Payouts;

/** Sends the month's processor payouts to Stripe as Connect transfers, after the chunks committed them. */
@Named
@Dependent
public class PayoutTransferSender extends AbstractBatchlet {

    @EJB
    PayoutTransfers transfers;

    @EJB
    Payouts payouts;

    @Inject
    @BatchProperty
    String month;

    @Override
    public String process() {
        transfers.send(PayoutMonth.of(month, payouts));
        return "COMPLETED";
    }
}
