package dev.atrium.billing.control;

import java.math.BigDecimal;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;

import dev.atrium.marketplace.control.CallFunds;

/** The marketplace's {@link CallFunds} on {@link Balances}, in the caller's transaction as before. */
@ApplicationScoped
public class BalancesForCalls implements CallFunds {

    @EJB
    Balances balances;

    @Override
    public UUID hold(long userId, BigDecimal amount) {
        return balances.hold(userId, amount);
    }

    @Override
    public void claim(UUID holdId) {
        balances.claim(holdId);
    }

    @Override
    public boolean release(UUID holdId) {
        return balances.release(holdId);
    }
}
