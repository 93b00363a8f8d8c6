package dev.atrium.billing.control;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;

import dev.atrium.platform.health.HealthPart;

/** {@code payments} of {@code /health} and of the operators' figures: the processor top-ups go to. */
@ApplicationScoped
public class PaymentsHealth implements HealthPart {

    @EJB
    PaymentsSetting payments;

    @Override
    public String name() {
        return "payments";
    }

    @Override
    public String describe() {
        return payments.describe();
    }
}
