package dev.atrium.billing.control;

import java.math.BigDecimal;
import java.time.YearMonth;
import java.util.List;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.billing.entity.AccountKind;
import dev.atrium.billing.entity.EntryKind;
import dev.atrium.billing.entity.Money;
import dev.atrium.marketplace.control.UsageQueries;

/**
 * A developer's revenue: for a month, the successful calls of their agents with what callers paid and the 70 % share
 * (from the usage records), and across all months what the ledger holds for them (earned, not yet paid out) and what
 * was paid out.
 */
@Stateless
public class Revenue {

    /** One month of a developer's revenue. */
    public record Month(YearMonth month, long calls, BigDecimal gross, BigDecimal developerShare,
                        List<UsageQueries.AgentRevenue> agents, BigDecimal pending, BigDecimal paidOut) {
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    UsageQueries usages;

    @EJB
    Ledger ledger;

    public Month of(long developerId, YearMonth month) {
        var agents = usages.revenue(developerId, month);
        long calls = agents.stream().mapToLong(UsageQueries.AgentRevenue::calls).sum();
        BigDecimal gross = agents.stream().map(UsageQueries.AgentRevenue::gross).reduce(Money.ZERO, BigDecimal::add);
        BigDecimal share = agents.stream().map(UsageQueries.AgentRevenue::developerShare)
                .reduce(Money.ZERO, BigDecimal::add);
        var earnings = ledger.find(AccountKind.DEVELOPER_EARNINGS, developerId);
        BigDecimal pending = earnings.map(a -> a.balance()).orElse(Money.ZERO);
        BigDecimal paid = earnings.map(a -> (BigDecimal) em.createQuery("SELECT COALESCE(SUM(l.amount), 0) FROM "
                        + "JournalLine l, JournalEntry e WHERE e.id = l.entryId AND l.accountId = :account "
                        + "AND e.kind IN :kinds").setParameter("account", a.id())
                        .setParameter("kinds", List.of(EntryKind.PAYOUT, EntryKind.PAYOUT_RETURNED))
                .getSingleResult()).map(sum -> Money.of(sum.negate())).orElse(Money.ZERO);
        return new Month(month, calls, gross, share, agents, pending, paid);
    }
}
