package dev.atrium.billing.control;

import java.time.Clock;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/**
 * Stripe's webhook endpoint: one signed stream of events for the account, checked once ({@link StripeProcessor}),
 * then {@code payment_intent.*} to the top-ups and {@code transfer.*} to the payouts; every other event is
 * acknowledged and changes nothing.
 */
@Stateless
public class StripeEvents {

    /** What an event did: whether it credited a top-up, and the status of the payout it was about (or null). */
    public record Received(boolean credited, String payout) {
    }

    @Inject
    StripeProcessor stripe;

    @EJB
    TopUps topUps;

    @EJB
    Payouts payouts;

    @Inject
    Clock clock;

    public Received receive(byte[] body, String signature) {
        var event = stripe.verified(body, signature, clock.instant());
        if (StripeProcessor.type(event).startsWith("transfer.")) {
            return new Received(false, stripe.transferEvent(event).map(e -> payouts.transferEvent(e).value())
                    .orElse(null));
        }
        return new Received(topUps.apply(stripe, stripe.topUpEvent(event)), null);
    }
}
