package dev.atrium.billing.control;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import dev.atrium.billing.entity.TopUp;

/**
 * A payment processor that takes the money of a top-up: {@code embedded} (development: confirms at once, receives
 * nothing), {@code webhook} (any processor posting Atrium's signed callback) and {@code stripe} (Stripe's payment
 * intents and webhook events). {@code atrium.billing.processor} names the one new top-ups go to; a top-up is confirmed
 * only by events of its own processor.
 */
public interface PaymentProcessor {

    /** The name in configuration and on each top-up. */
    String name();

    /** The header that carries the signature of this processor's callbacks. */
    String signatureHeader();

    /**
     * Opens the payment of a new top-up at the processor. Throws a {@link dev.atrium.platform.error.BusinessException}
     * 502 or 503 when the processor refuses or cannot be reached; the top-up is then not created.
     */
    Payment open(TopUp topUp);

    /**
     * Verifies and reads a callback: 401 for a missing or wrong signature, 400 outside the replay window or for an
     * unreadable body, 503 when callbacks are not configured; empty for events that concern no top-up.
     */
    Optional<Event> read(byte[] body, String signature, Instant now);

    /** The processor's side of a new top-up; {@code clientSecret} is what the payer's client completes it with. */
    record Payment(String externalId, String clientSecret, boolean confirmed) {
    }

    /**
     * A callback about a top-up. {@code externalId}, {@code amount} and {@code currency} are checked against the top-up
     * when the processor reports them (null when it does not).
     */
    record Event(Outcome outcome, UUID topUpId, String externalId, BigDecimal amount, String currency) {
    }

    enum Outcome {
        SUCCEEDED, FAILED
    }
}
