package dev.atrium.billing.control;

import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;

import dev.atrium.billing.entity.AccountKind;
import dev.atrium.billing.entity.BillingAccount;
import dev.atrium.billing.entity.EntryKind;
import dev.atrium.billing.entity.JournalEntry;
import dev.atrium.billing.entity.RevenueSplit;
import dev.atrium.billing.entity.TopUp;
import dev.atrium.identity.control.UserService;
import dev.atrium.marketplace.control.UsageQueries;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.persistence.Constraints;

/**
 * What an administrator does to balances, each a journal entry naming who and why: a credit (from promotions) to a
 * user who exists and the refund of one billed usage (its entry reversed, once, however many refunds race).
 */
@Stateless
public class AdminBilling {

    @EJB
    Ledger ledger;

    @EJB
    UsageQueries usages;

    @EJB
    UserService users;

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    /** 404 for a user who does not exist: a balance never waits for whoever gets that id. */
    public JournalEntry credit(long admin, long userId, BigDecimal amount, String reason) {
        BigDecimal credited = TopUp.checked(amount);
        requireReason(reason);
        if (users.summaries(List.of(userId)).isEmpty()) {
            throw BusinessException.notFound("User");
        }
        return ledger.post(EntryKind.ADMIN_CREDIT, "credit:" + UUID.randomUUID(), admin, reason.strip(), List.of(
                new Ledger.Line(AccountKind.PROMOTIONS, BillingAccount.PLATFORM, credited.negate()),
                new Ledger.Line(AccountKind.USER_BALANCE, userId, credited))).orElseThrow();
    }

    /**
     * Reverses the usage's entry: 404 for an unknown usage, 409 when it was not charged or is refunded already, also
     * when another refund of it commits first (its entry's reference is unique: the loser's insert fails at the flush).
     */
    public JournalEntry refund(long admin, UUID usageId, String reason) {
        requireReason(reason);
        var usage = usages.billable(usageId).orElseThrow(() -> BusinessException.notFound("Usage record"));
        if (!ledger.posted("usage:" + usageId)) {
            throw BusinessException.conflict("The usage record was not charged (yet)");
        }
        var split = RevenueSplit.of(usage.priceCharged());
        var entry = ledger.post(EntryKind.REFUND, "refund:usage:" + usageId, admin, reason.strip(), List.of(
                        new Ledger.Line(AccountKind.USER_BALANCE, usage.userId(), usage.priceCharged()),
                        new Ledger.Line(AccountKind.DEVELOPER_EARNINGS, usage.developerId(),
                                split.developer().negate()),
                        new Ledger.Line(AccountKind.PLATFORM_REVENUE, BillingAccount.PLATFORM, split.platform().negate()),
                        new Ledger.Line(AccountKind.MODEL_COST, BillingAccount.PLATFORM, split.model().negate())))
                .orElseThrow(() -> BusinessException.conflict("The usage record was refunded already"));
        try {
            em.flush();
        } catch (PersistenceException e) {
            if (Constraints.isUniqueViolation(e)) {
                throw BusinessException.conflict("The usage record was refunded already");
            }
            throw e;
        }
        return entry;
    }

    private static void requireReason(String reason) {
        if (reason == null || reason.isBlank() || reason.length() > JournalEntry.MEMO_MAX) {
            throw BusinessException.validation("reason: 1 to " + JournalEntry.MEMO_MAX + " characters");
        }
    }
}
