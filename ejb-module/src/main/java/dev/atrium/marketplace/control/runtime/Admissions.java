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

/**
 * The parts of a call's price that admission reserves in the database, each by one conditional statement in a short
 * transaction of its own, so concurrent calls (on any instance) can never take the same thing twice: a freemium
 * agent's free calls of the month, the month whose subscription fee a call pays, and the budget an invocation's
 * dependency calls draw on ({@code Atrium-Max-Price-Usd}). Each has its give-back, for a call refused or failed
 * after it reserved.
 */
@Stateless
public class Admissions {

    /** An invocation's budget: its cap, what its calls hold or were charged, and the dependency calls refused. */
    public record Budget(BigDecimal cap, BigDecimal spent, int refused) {
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Clock clock;

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
