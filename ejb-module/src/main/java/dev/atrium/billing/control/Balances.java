package dev.atrium.billing.control;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import dev.atrium.billing.entity.AccountKind;
import dev.atrium.billing.entity.BillingAccount;
import dev.atrium.billing.entity.Hold;
import dev.atrium.billing.entity.Money;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * A user's balance and the holds on it. A hold is placed by one conditional update (the available balance must cover
 * it, checked and reserved in the same statement), so concurrent invocations racing for the last credit can never
 * reserve more than there is; billing settles a hold with its usage, the gateway releases one whose run never
 * happened.
 */
@Stateless
public class Balances {

    /** A user's balance: the sum of their account's lines, the part held, and what may still be spent. */
    public record Balance(long userId, BigDecimal balance, BigDecimal held, BigDecimal available) {
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    Ledger ledger;

    @Inject
    Clock clock;

    public Balance of(long userId) {
        BillingAccount a = ledger.account(AccountKind.USER_BALANCE, userId);
        em.flush();
        em.refresh(a);
        return new Balance(userId, a.balance(), a.held(), a.available());
    }

    /**
     * Reserves {@code amount} of the user's available balance for one invocation; answers the hold's id. 402 with
     * code 30001 when the available balance does not cover it.
     */
    public UUID hold(long userId, BigDecimal amount) {
        BigDecimal reserved = Money.of(amount);
        BillingAccount account = ledger.account(AccountKind.USER_BALANCE, userId);
        em.flush();
        int updated = em.createNativeQuery("UPDATE billing_accounts SET held = held + ? WHERE id = ? "
                        + "AND balance - held >= ?")
                .setParameter(1, reserved).setParameter(2, account.id()).setParameter(3, reserved).executeUpdate();
        if (updated == 0) {
            em.refresh(account);
            throw new BusinessException(Problem.PAYMENT_REQUIRED, "Insufficient balance",
                    "This call may cost up to " + reserved.toPlainString() + " USD; the available balance is "
                            + account.available().toPlainString() + " USD. Top up with POST /v1/billing/top-ups");
        }
        var hold = new Hold(UUID.randomUUID(), account.id(), reserved, clock.instant());
        em.persist(hold);
        return hold.id();
    }

    /** Gives a hold back untouched (the run did not happen); false when it was closed already. */
    public boolean release(UUID holdId) {
        return close(holdId, Hold.Status.RELEASED);
    }

    /** Closes the hold as settled, in the caller's transaction (billing posts the usage in the same one). */
    public boolean settle(UUID holdId) {
        return close(holdId, Hold.Status.SETTLED);
    }

    /**
     * Settles several holds in the caller's transaction, their rows locked in id order (a second delivery of the same
     * usage waits here for the first to commit), and answers the amounts released per account, which the caller takes
     * off the accounts' {@code held} with its own update ({@code Ledger.postAll}).
     */
    public java.util.Map<UUID, BigDecimal> settleAll(java.util.Collection<UUID> holdIds) {
        var released = new java.util.TreeMap<UUID, BigDecimal>();
        if (holdIds.isEmpty()) {
            return released;
        }
        var holds = em.createQuery("SELECT h FROM Hold h WHERE h.id IN :ids ORDER BY h.id", Hold.class)
                .setParameter("ids", holdIds).setLockMode(LockModeType.PESSIMISTIC_WRITE).getResultList();
        for (Hold hold : holds) {
            if (hold.close(Hold.Status.SETTLED, clock.instant())) {
                released.merge(hold.accountId(), hold.amount(), BigDecimal::add);
            }
        }
        return released;
    }

    private boolean close(UUID holdId, Hold.Status to) {
        em.flush();
        Hold hold = em.find(Hold.class, holdId, LockModeType.PESSIMISTIC_WRITE);
        if (hold == null || !hold.close(to, clock.instant())) {
            return false;
        }
        em.createNativeQuery("UPDATE billing_accounts SET held = held - ? WHERE id = ?")
                .setParameter(1, hold.amount()).setParameter(2, hold.accountId()).executeUpdate();
        return true;
    }
}
