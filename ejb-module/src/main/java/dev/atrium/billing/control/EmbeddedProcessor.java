package dev.atrium.billing.control;

import java.time.Instant;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import dev.atrium.billing.entity.TopUp;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/** For development only: every top-up is confirmed at once and no money is received. It takes no callbacks. */
@ApplicationScoped
public class EmbeddedProcessor implements PaymentProcessor {

    @Override
    public String name() {
        return TopUps.EMBEDDED;
    }

    @Override
    public String signatureHeader() {
        return "none";
    }

    @Override
    public Payment open(TopUp topUp) {
        return new Payment("embedded-" + topUp.id(), null, true);
    }

    @Override
    public Optional<Event> read(byte[] body, String signature, Instant now) {
        throw new BusinessException(Problem.UNAVAILABLE, "The embedded processor takes no callbacks");
    }
}
