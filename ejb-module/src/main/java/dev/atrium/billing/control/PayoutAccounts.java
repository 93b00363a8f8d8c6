package dev.atrium.billing.control;

import java.time.Clock;
import java.util.Optional;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import dev.atrium.billing.entity.PayoutAccount;

/** A developer's payout details. The IBAN never leaves this context but in the payout file. */
@Stateless
public class PayoutAccounts {

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Clock clock;

    public Optional<PayoutAccount> of(long userId) {
        return Optional.ofNullable(em.find(PayoutAccount.class, userId));
    }

    public PayoutAccount put(long userId, String method, String holderName, String iban, String bic,
                             String connectedAccount) {
        PayoutAccount account = em.find(PayoutAccount.class, userId, LockModeType.PESSIMISTIC_WRITE);
        boolean fresh = account == null;
        if (fresh) {
            account = new PayoutAccount(userId);
        }
        account.change(PayoutAccount.Method.of(method), holderName, iban, bic, connectedAccount,
                clock.instant());
        if (fresh) {
            em.persist(account);
        }
        return account;
    }
}
