package dev.atrium.containerit.billing;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.billing.control.Ledger;
import dev.atrium.billing.entity.AccountKind;
import dev.atrium.billing.entity.BillingAccount;
import dev.atrium.billing.entity.EntryKind;
import dev.atrium.billing.entity.Hold;
import dev.atrium.containerit.TestDatabase;
import dev.atrium.platform.persistence.DatabaseMigrations;

/**
 * Each method is one container-managed transaction, as the billing queue's consumer runs one per batch: the test
 * calls them from outside any transaction. The data source the product's persistence unit and migrations look up is
 * defined here, on the test database.
 */
@DataSourceDefinition(name = DatabaseMigrations.DATA_SOURCE, className = "org.postgresql.ds.PGSimpleDataSource",
        url = TestDatabase.URL, user = "postgres", minPoolSize = 1, maxPoolSize = 4)
@Stateless
public class BillingTransactions {

    @EJB
    Ledger ledger;

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    /** Credits {@code owner}'s balance from external payments (a confirmed top-up), committed. */
    public void topUp(long owner, BigDecimal amount) {
        ledger.post(EntryKind.TOP_UP, "top-up:" + owner + ":" + amount, null, "test top-up",
                List.of(new Ledger.Line(AccountKind.EXTERNAL_PAYMENTS, BillingAccount.PLATFORM, amount.negate()),
                        new Ledger.Line(AccountKind.USER_BALANCE, owner, amount)));
    }

    /** Opens a hold of {@code amount} on {@code owner}'s balance (as the gateway does before a paid call). */
    public UUID hold(long owner, BigDecimal amount) {
        var account = ledger.lock(ledger.account(AccountKind.USER_BALANCE, owner));
        var hold = new Hold(UUID.randomUUID(), account.id(), amount, Instant.now());
        em.persist(hold);
        em.createNativeQuery("UPDATE billing_accounts SET held = held + ? WHERE id = ?").setParameter(1, amount)
                .setParameter(2, account.id()).executeUpdate();
        return hold.id();
    }

    /** What the billing consumer does with a batch: settles the hold its usage claimed, then posts the entries. */
    public int settleAndPost(UUID holdId, List<Ledger.Request> requests) {
        var hold = em.find(Hold.class, holdId);
        hold.close(Hold.Status.SETTLED, Instant.now());
        return ledger.postAll(requests, Map.of(hold.accountId(), hold.amount()));
    }

    public int postAll(List<Ledger.Request> requests) {
        return ledger.postAll(requests);
    }
}
