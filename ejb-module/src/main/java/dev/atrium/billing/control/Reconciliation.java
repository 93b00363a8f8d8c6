package dev.atrium.billing.control;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.billing.entity.AccountKind;
import dev.atrium.billing.entity.EntryKind;
import dev.atrium.billing.entity.Money;
import dev.atrium.marketplace.control.UsageQueries;

/**
 * Proves a day's (or a month's) money agrees: the charged usage records of the period (UTC) against the usage entries
 * posted for them, every entry's lines summing to zero, every account's cached balance equal to the sum of its lines,
 * every account's held amount equal to its open holds, no user's balance below zero, and no usage record of the period
 * charged above the hold admission placed for it. Reads only; {@code agrees} when all six hold.
 */
@Stateless
public class Reconciliation {

    static final int MAX_LISTED = 100;

    /** What was compared, and the first differences found. */
    public record Report(String period, long usageRecords, BigDecimal usageCharged, long usageEntries,
                         BigDecimal entriesCharged, List<UUID> unbilledUsage, long unbalancedEntries,
                         List<UUID> accountsOffBalance, List<UUID> accountsOffHeld, List<Long> negativeBalances,
                         List<UUID> chargesAboveHold, boolean agrees) {
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    UsageQueries usages;

    public Report of(LocalDate date) {
        return of(date.toString(), date, date.plusDays(1));
    }

    /** The whole calendar month (UTC): its usage records and entries, and the ledger-wide checks. */
    public Report of(YearMonth month) {
        return of(month.toString(), month.atDay(1), month.plusMonths(1).atDay(1));
    }

    private Report of(String period, LocalDate from, LocalDate until) {
        var start = from.atStartOfDay(ZoneOffset.UTC).toInstant();
        var end = until.atStartOfDay(ZoneOffset.UTC).toInstant();
        var charged = usages.chargedOn(start, end);
        Object[] entries = (Object[]) em.createQuery("SELECT COUNT(DISTINCT e.id), COALESCE(SUM(l.amount), 0) FROM "
                        + "JournalEntry e, JournalLine l, BillingAccount a WHERE l.entryId = e.id AND a.id = l.accountId "
                        + "AND a.kind = :account AND e.kind = :kind "
                        + "AND e.occurredAt >= :start AND e.occurredAt < :end")
                .setParameter("account", AccountKind.USER_BALANCE)
                .setParameter("kind", EntryKind.USAGE).setParameter("start", start).setParameter("end", end)
                .getSingleResult();
        long entryCount = ((Number) entries[0]).longValue();
        BigDecimal entrySum = Money.of(((BigDecimal) entries[1]).negate());
        List<UUID> unbilled = List.of();
        if (entryCount != charged.count() || entrySum.compareTo(charged.sum()) != 0) {
            var posted = new HashSet<>(em.createQuery("SELECT e.reference FROM JournalEntry e WHERE e.kind = :kind "
                            + "AND e.occurredAt >= :start AND e.occurredAt < :end", String.class)
                    .setParameter("kind", EntryKind.USAGE).setParameter("start", start).setParameter("end", end)
                    .getResultList());
            unbilled = usages.chargedIdsOn(start, end).stream().filter(id -> !posted.contains("usage:" + id))
                    .limit(MAX_LISTED).toList();
        }
        long unbalanced = ((Number) em.createNativeQuery("SELECT COUNT(*) FROM (SELECT entry_id FROM journal_lines "
                + "GROUP BY entry_id HAVING SUM(amount) <> 0) x").getSingleResult()).longValue();
        @SuppressWarnings("unchecked")
        List<Object> offBalance = em.createNativeQuery("SELECT a.id FROM billing_accounts a LEFT JOIN journal_lines l "
                + "ON l.account_id = a.id GROUP BY a.id, a.balance HAVING a.balance <> COALESCE(SUM(l.amount), 0)")
                .setMaxResults(MAX_LISTED).getResultList();
        @SuppressWarnings("unchecked")
        List<Object> offHeld = em.createNativeQuery("SELECT a.id FROM billing_accounts a LEFT JOIN billing_holds h "
                + "ON h.account_id = a.id AND h.status = 'OPEN' GROUP BY a.id, a.held "
                + "HAVING a.held <> COALESCE(SUM(h.amount), 0)").setMaxResults(MAX_LISTED).getResultList();
        var balanceIds = offBalance.stream().map(Reconciliation::uuid).toList();
        var heldIds = offHeld.stream().map(Reconciliation::uuid).toList();
        @SuppressWarnings("unchecked")
        List<Object> negative = em.createNativeQuery("SELECT owner_id FROM billing_accounts WHERE kind = 'USER_BALANCE' "
                + "AND balance < 0 ORDER BY owner_id").setMaxResults(MAX_LISTED).getResultList();
        var negativeOwners = negative.stream().map(o -> ((Number) o).longValue()).toList();
        var aboveHold = usages.chargedAboveDecision(start, end, MAX_LISTED);
        boolean agrees = entryCount == charged.count() && entrySum.compareTo(charged.sum()) == 0 && unbalanced == 0
                && balanceIds.isEmpty() && heldIds.isEmpty() && negativeOwners.isEmpty() && aboveHold.isEmpty();
        return new Report(period, charged.count(), charged.sum(), entryCount, entrySum, unbilled, unbalanced,
                balanceIds, heldIds, negativeOwners, aboveHold, agrees);
    }

    private static UUID uuid(Object value) {
        return value instanceof UUID u ? u : UUID.fromString(value.toString());
    }
}
