package dev.atrium.billing.control;

import java.time.YearMonth;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * Sends the month's processor payouts to Stripe as Connect transfers, after the run's chunks committed them: each in
 * its own short transaction, and no database transaction open while Stripe is asked. The payout id is the transfer's
 * idempotency key, so a payout sent again (a restarted or repeated run, an answer lost on the way) moves the money
 * once. A payout Stripe cannot take now stays {@code pending} with the reason and is sent by the month's next run; one
 * Stripe refuses (nothing moved) fails and its money goes back to the earnings. With another processor than
 * {@code stripe} nothing is sent: the payouts stay {@code pending} and say why.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class PayoutTransfers {

    private static final Logger LOG = Logger.getLogger(PayoutTransfers.class.getName());

    @EJB
    Payouts payouts;

    @EJB
    PaymentsSetting payments;

    @Inject
    StripeProcessor stripe;

    /** Answers how many transfers Stripe accepted. */
    public int send(YearMonth month) {
        if (!StripeProcessor.NAME.equals(payments.processor())) {
            return 0;
        }
        int sent = 0;
        for (var payout : payouts.awaitingTransfer(month)) {
            try {
                var transfer = stripe.transfer(payout.id(), payout.amount(), payout.connectedAccount(),
                        month.toString());
                payouts.transferred(payout.id(), transfer.id());
                sent++;
            } catch (BusinessException e) {
                if (e.problem() == Problem.UPSTREAM) {
                    payouts.refused(payout.id(), "Stripe refused the transfer: " + e.details());
                } else {
                    payouts.waiting(payout.id(), "transfer not sent: " + e.getMessage()
                            + "; the month's next run sends it");
                }
            }
        }
        int accepted = sent;
        LOG.info(() -> "Payouts for " + month + ": " + accepted + " Stripe transfers sent");
        return sent;
    }
}
