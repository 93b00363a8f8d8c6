package dev.atrium.billing.control;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;

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

    /**
     * Binds the hold to the usage record written in the caller's transaction: billing settles it from now on, and
     * the sweeper leaves it alone. 409 when the hold is no longer open (the sweeper released it: the call ran longer
     * than any run can).
     */
    public void claim(UUID holdId) {
        int claimed = em.createNativeQuery("UPDATE billing_holds SET claimed_at = ? WHERE id = ? AND status = 'OPEN' "
                        + "AND claimed_at IS NULL")
                .setParameter(1, Timestamp.from(clock.instant())).setParameter(2, holdId).executeUpdate();
        if (claimed == 0) {
            throw BusinessException.conflict("The call's balance hold was released before its usage was recorded");
        }
    }

    /**
     * Releases the open holds no usage record claimed that were placed before {@code before} (calls that died
     * between their hold and their record: a crash, a lost connection), at most {@code max} of them, and answers
     * them: the sweeper's work.
     */
    public List<Hold> releaseStale(Instant before, int max) {
        var stale = em.createQuery("SELECT h.id FROM Hold h WHERE h.status = :open AND h.claimedAt IS NULL "
                        + "AND h.createdAt < :before ORDER BY h.id", UUID.class)
                .setParameter("open", Hold.Status.OPEN).setParameter("before", before).setMaxResults(max)
                .getResultList();
        var released = new ArrayList<Hold>();
        for (UUID id : stale) {
            if (release(id)) {
                released.add(em.find(Hold.class, id));
            }
        }
        return released;
    }

    /** Gives a hold back untouched (the run did not happen); false when it was closed already. */
    public boolean release(UUID holdId) {
        em.flush();
        Hold hold = em.find(Hold.class, holdId, LockModeType.PESSIMISTIC_WRITE);
        if (hold == null || hold.claimed() || !hold.close(Hold.Status.RELEASED, clock.instant())) {
            return false;
        }
        em.createNativeQuery("UPDATE billing_accounts SET held = held - ? WHERE id = ?")
                .setParameter(1, hold.amount()).setParameter(2, hold.accountId()).executeUpdate();
        return true;
    }

    /** Holds settled together: the amount of each, and what that releases per account. */
    public record Settled(Map<UUID, BigDecimal> byHold, Map<UUID, BigDecimal> byAccount) {
    }

    /**
     * Settles several holds in the caller's transaction, their rows locked in id order (a second delivery of the same
     * usage waits here for the first to commit), and answers the amount of each hold settled now (a hold settled or
     * released before is not among them) and the amounts released per account, which the caller takes off the
     * accounts' {@code held} with its own update ({@code Ledger.postAll}).
     */
    public Settled settleAll(Collection<UUID> holdIds) {
        var byHold = new HashMap<UUID, BigDecimal>();
        var byAccount = new TreeMap<UUID, BigDecimal>();
        if (holdIds.isEmpty()) {
            return new Settled(byHold, byAccount);
        }
        // two statements for the whole batch rather than the holds as entities, whose closing EclipseLink wrote as an
        // update per hold (bench-billing, pg_stat_statements); the rule is Hold.close's: only an open hold settles
        em.flush();
        var connection = em.unwrap(Connection.class);
        try (var select = connection.prepareStatement("SELECT id, account_id, amount, status FROM billing_holds "
                + "WHERE id = ANY (?) ORDER BY id FOR UPDATE")) {
            select.setArray(1, connection.createArrayOf("uuid", holdIds.stream().distinct().toArray()));
            try (var rows = select.executeQuery()) {
                while (rows.next()) {
                    if (Hold.Status.OPEN.name().equals(rows.getString(4))) {
                        var amount = Money.of(rows.getBigDecimal(3));
                        byHold.put(rows.getObject(1, UUID.class), amount);
                        byAccount.merge(rows.getObject(2, UUID.class), amount, BigDecimal::add);
                    }
                }
            }
            if (!byHold.isEmpty()) {
                try (var update = connection.prepareStatement("UPDATE billing_holds SET status = ?, closed_at = ? "
                        + "WHERE id = ANY (?)")) {
                    update.setString(1, Hold.Status.SETTLED.name());
                    update.setObject(2, clock.instant().atOffset(ZoneOffset.UTC));
                    update.setArray(3, connection.createArrayOf("uuid", byHold.keySet().toArray()));
                    update.executeUpdate();
                }
            }
        } catch (SQLException e) {
            throw new PersistenceException("Settling " + holdIds.size() + " holds failed", e);
        }
        return new Settled(byHold, byAccount);
    }
}
