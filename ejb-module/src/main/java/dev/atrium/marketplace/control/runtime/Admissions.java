package dev.atrium.marketplace.control.runtime;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.UUID;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.marketplace.control.CallFunds;
import dev.atrium.marketplace.entity.Pricing;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * The parts of a call's price that admission reserves in the database, each by one conditional statement, all of a
 * call's in one short transaction ({@link #admit}), so concurrent calls (on any instance) can never take the same
 * thing twice: a freemium agent's free calls of the month, the month whose subscription fee a call pays, and the budget an invocation's
 * dependency calls draw on ({@code Atrium-Max-Price-Usd}). Each has its give-back, for a call refused or failed
 * after it reserved.
 */
@Stateless
public class Admissions {

    /** An invocation's budget: its cap, what its calls hold or were charged, and the dependency calls refused. */
    public record Budget(BigDecimal cap, BigDecimal spent, int refused) {
    }

    /**
     * What {@link #admit} reserved, all in one transaction: the month ({@link #month}), whether the call took a free
     * call or pays the month's fee, the charge decided, and the hold (null when the call may cost nothing).
     * {@code overBudget}: the invocation's budget could not cover this dependency call; the refusal is counted and
     * nothing is held, the free call or fee month stays reserved for the caller to give back as it refuses.
     */
    public record Admitted(int month, boolean freeSlot, boolean paysFee, Pricing.Charge charge, boolean overBudget,
                           UUID holdId) {
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Clock clock;

    /** Billing's balances (billing implements it). */
    @Inject
    CallFunds balances;

    /**
     * Decides and reserves a call's price in one transaction (docs/decisions/billing.md, "Holds — no overspending"):
     * the freemium free call or the subscription month, the dependency budget of the invocation {@code root} (null
     * for a caller's own call, which opens a budget of {@code maxPrice} when {@code opensBudget}), then the hold of
     * the most it can cost. A refusal (above {@code maxPrice}, 402 from the balance) rolls all of it back; only the
     * budget's refusal commits, as it is counted ({@link Admitted#overBudget}).
     */
    public Admitted admit(long userId, UUID agentId, String agentName, Pricing pricing, UUID runId, UUID root,
                          BigDecimal maxPrice, boolean opensBudget) {
        int month = month();
        boolean freeSlot = false;
        boolean paysFee = false;
        if (pricing.hasFreeSlots()) {
            freeSlot = takeFreeSlot(userId, agentId, month, pricing.freeQuota());
        } else if (pricing.model() == Pricing.Model.SUBSCRIPTION) {
            paysFee = claimFeeMonth(userId, agentId, month, runId);
        }
        var charge = pricing.decide(freeSlot, paysFee);
        BigDecimal max = charge.max();
        if (root != null) {
            if (!reserveInBudget(root, max)) {
                return new Admitted(month, freeSlot, paysFee, charge, true, null);
            }
        } else {
            BigDecimal cap = maxPrice == null ? max : maxPrice;
            if (max.compareTo(cap) > 0) {
                throw new BusinessException(Problem.PAYMENT_REQUIRED, "Above the price you agreed to",
                        "This call of " + agentName + " may cost up to " + max.toPlainString() + " USD, above "
                                + "Atrium-Max-Price-Usd " + cap.toPlainString() + " USD");
            }
            if (opensBudget) {
                openBudget(runId, userId, cap, max);
            }
        }
        UUID hold = max.signum() > 0 ? balances.hold(userId, max) : null;
        return new Admitted(month, freeSlot, paysFee, charge, false, hold);
    }

    /** The calendar month (UTC) of now, as YYYYMM: the month a call is admitted in pays for it. */
    public int month() {
        var month = YearMonth.now(clock.withZone(ZoneOffset.UTC));
        return month.getYear() * 100 + month.getMonthValue();
    }

    /** Takes one of the month's {@code quota} free calls of the agent for the user; false when none is left. */
    public boolean takeFreeSlot(long userId, UUID agentId, int month, long quota) {
        em.createNativeQuery("INSERT INTO marketplace_free_slots (user_id, agent_id, month_key, used) "
                        + "VALUES (?, ?, ?, 0) ON CONFLICT DO NOTHING")
                .setParameter(1, userId).setParameter(2, agentId).setParameter(3, month).executeUpdate();
        return em.createNativeQuery("UPDATE marketplace_free_slots SET used = used + 1 WHERE user_id = ? "
                        + "AND agent_id = ? AND month_key = ? AND used < ?")
                .setParameter(1, userId).setParameter(2, agentId).setParameter(3, month).setParameter(4, quota)
                .executeUpdate() == 1;
    }

    /** Gives a free call back: the call that took it was refused or failed. */
    public void giveFreeSlotBack(long userId, UUID agentId, int month) {
        em.createNativeQuery("UPDATE marketplace_free_slots SET used = used - 1 WHERE user_id = ? AND agent_id = ? "
                        + "AND month_key = ? AND used > 0")
                .setParameter(1, userId).setParameter(2, agentId).setParameter(3, month).executeUpdate();
    }

    /**
     * Claims the month's subscription fee for the call {@code runId}: true when this call pays it (nobody paid or is
     * paying it this month), false when the month is paid or being paid by another call.
     */
    public boolean claimFeeMonth(long userId, UUID agentId, int month, UUID runId) {
        return em.createNativeQuery("INSERT INTO marketplace_subscription_months (user_id, agent_id, month_key, "
                        + "run_id, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")
                .setParameter(1, userId).setParameter(2, agentId).setParameter(3, month).setParameter(4, runId)
                .setParameter(5, Timestamp.from(clock.instant())).executeUpdate() == 1;
    }

    /** Gives the month's fee back: the call that was to pay it was refused or failed, so the next call pays. */
    public void releaseFeeMonth(long userId, UUID agentId, int month, UUID runId) {
        em.createNativeQuery("DELETE FROM marketplace_subscription_months WHERE user_id = ? AND agent_id = ? "
                        + "AND month_key = ? AND run_id = ?")
                .setParameter(1, userId).setParameter(2, agentId).setParameter(3, month).setParameter(4, runId)
                .executeUpdate();
    }

    /** Opens the budget of the invocation {@code rootRunId}: {@code cap} in all, {@code own} held by its own call. */
    public void openBudget(UUID rootRunId, long userId, BigDecimal cap, BigDecimal own) {
        em.createNativeQuery("INSERT INTO marketplace_invocation_budgets (root_run_id, user_id, cap, spent, refused, "
                        + "created_at) VALUES (?, ?, ?, ?, 0, ?)")
                .setParameter(1, rootRunId).setParameter(2, userId).setParameter(3, cap).setParameter(4, own)
                .setParameter(5, Timestamp.from(clock.instant())).executeUpdate();
    }

    /**
     * Reserves {@code amount} of the invocation's budget for one dependency call; false (and the refusal counted)
     * when what is left does not cover it.
     */
    public boolean reserveInBudget(UUID rootRunId, BigDecimal amount) {
        int reserved = em.createNativeQuery("UPDATE marketplace_invocation_budgets SET spent = spent + ? "
                        + "WHERE root_run_id = ? AND spent + ? <= cap")
                .setParameter(1, amount).setParameter(2, rootRunId).setParameter(3, amount).executeUpdate();
        if (reserved == 0) {
            em.createNativeQuery("UPDATE marketplace_invocation_budgets SET refused = refused + 1 "
                    + "WHERE root_run_id = ?").setParameter(1, rootRunId).executeUpdate();
        }
        return reserved == 1;
    }

    /** Gives back part of a reservation: the call cost less than it held, or never ran. */
    public void giveBackToBudget(UUID rootRunId, BigDecimal amount) {
        if (amount.signum() > 0) {
            em.createNativeQuery("UPDATE marketplace_invocation_budgets SET spent = spent - ? WHERE root_run_id = ?")
                    .setParameter(1, amount).setParameter(2, rootRunId).executeUpdate();
        }
    }

    public Optional<Budget> budget(UUID rootRunId) {
        return em.createNativeQuery("SELECT cap, spent, refused FROM marketplace_invocation_budgets "
                        + "WHERE root_run_id = ?").setParameter(1, rootRunId).getResultStream().findFirst()
                .map(row -> {
                    Object[] r = (Object[]) row;
                    return new Budget((BigDecimal) r[0], (BigDecimal) r[1], ((Number) r[2]).intValue());
                });
    }
}
