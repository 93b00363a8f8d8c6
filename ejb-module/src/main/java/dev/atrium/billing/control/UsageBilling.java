package dev.atrium.billing.control;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import org.eclipse.microprofile.metrics.MetricRegistry;

import dev.atrium.billing.entity.AccountKind;
import dev.atrium.billing.entity.BillingAccount;
import dev.atrium.billing.entity.EntryKind;
import dev.atrium.billing.entity.RevenueSplit;
import dev.atrium.identity.control.UserService;
import dev.atrium.marketplace.control.UsageQueries;
import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.mail.MailService;

/**
 * Bills usage records, each once: in one transaction the hold placed for it is settled and, for a charged call, the
 * entry {@code usage:<id>} posts the price from the user's balance to the developer's earnings (70 %), the platform's
 * revenue (20 %) and the model cost (10 %). A second delivery of the same record finds the entry and posts nothing.
 * When the user's balance is then below {@value #LOW_BALANCE} USD, a notice is mailed, at most once a day (UTC).
 * Metrics: {@code atrium_billing_queue_lag} times each record from its recording to its billing (the billing
 * queue's lag), {@code atrium_billing_usage_billed_total} counts the records billed and
 * {@code atrium_billing_entries_posted_total} the ledger entries posted for them.
 */
@Stateless
public class UsageBilling {

    public static final String LOW_BALANCE = "1.00";
    private static final Logger LOG = Logger.getLogger(UsageBilling.class.getName());

    @EJB
    UsageQueries usages;

    @EJB
    Ledger ledger;

    @EJB
    Balances balances;

    @EJB
    UserService users;

    @EJB
    MailService mail;

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    @Inject
    MetricRegistry metrics;

    /**
     * Bills several usage records in one transaction (the billing queue's batches): their holds settled together,
     * their entries posted with each account locked once. Throws, and nothing is billed, while any cannot be read.
     */
    public int billAll(List<UUID> usageIds) {
        var found = usages.billable(usageIds);
        if (found.size() < new HashSet<>(usageIds).size()) {
            throw new IllegalStateException("Some of " + usageIds.size() + " usage records were not found");
        }
        var settled = balances.settleAll(found.values().stream().map(UsageQueries.BillableUsage::holdId)
                .filter(Objects::nonNull).toList());
        var requests = new ArrayList<Ledger.Request>();
        for (var usage : found.values()) {
            BigDecimal price = chargeable(usage, settled.byHold());
            if (price.signum() == 0) {
                continue;
            }
            var split = RevenueSplit.of(price);
            requests.add(new Ledger.Request(EntryKind.USAGE, "usage:" + usage.usageId(), null,
                    "Agent " + usage.agentName(), List.of(
                    new Ledger.Line(AccountKind.USER_BALANCE, usage.userId(), price.negate()),
                    new Ledger.Line(AccountKind.DEVELOPER_EARNINGS, usage.developerId(), split.developer()),
                    new Ledger.Line(AccountKind.PLATFORM_REVENUE, BillingAccount.PLATFORM, split.platform()),
                    new Ledger.Line(AccountKind.MODEL_COST, BillingAccount.PLATFORM, split.model())),
                    usage.recordedAt()));
        }
        int posted = ledger.postAll(requests, settled.byAccount());
        var now = clock.instant();
        var lag = metrics.timer("atrium_billing_queue_lag");
        for (var usage : found.values()) {
            // the clock may be set back in tests: a record "from the future" has waited for nothing
            var waited = Duration.between(usage.recordedAt(), now);
            lag.update(waited.isNegative() ? Duration.ZERO : waited);
        }
        metrics.counter("atrium_billing_usage_billed_total").inc(found.size());
        metrics.counter("atrium_billing_entries_posted_total").inc(posted);
        // the users charged in this batch whose balance is now low, found with one query
        var charged = requests.stream().map(r -> r.lines().get(0).owner()).distinct().toList();
        ledger.below(AccountKind.USER_BALANCE, charged, new BigDecimal(LOW_BALANCE))
                .forEach(a -> lowBalance(a.ownerId(), a.balance()));
        return posted;
    }

    /**
     * What a usage may be charged: its recorded price, never more than the hold settled with it in this transaction.
     * A usage without a hold settled now is charged nothing: free, or billed before (its entry exists), or, if
     * neither, a charge nobody held, which is refused and logged (reconciliation names such records).
     */
    private BigDecimal chargeable(UsageQueries.BillableUsage usage, Map<UUID, BigDecimal> settledHolds) {
        BigDecimal price = usage.priceCharged();
        BigDecimal held = usage.holdId() == null ? null : settledHolds.get(usage.holdId());
        if (price.signum() == 0 || held != null && price.compareTo(held) <= 0) {
            return price;
        }
        if (held == null && ledger.posted("usage:" + usage.usageId())) {
            return BigDecimal.ZERO;
        }
        LOG.severe(() -> "Usage " + usage.usageId() + " is priced " + price.toPlainString() + " USD but "
                + (held == null ? "no open hold covers it" : "its hold was " + held.toPlainString() + " USD")
                + ": charged " + (held == null ? "nothing" : "the hold"));
        return held == null ? BigDecimal.ZERO : held;
    }

    /** Bills the usage record as a batch of one; false when it was billed before. Throws while it cannot be read. */
    public boolean bill(UUID usageId) {
        return billAll(List.of(usageId)) > 0;
    }

    private void lowBalance(long userId, BigDecimal balance) {
        LocalDate today = LocalDate.now(clock.withZone(ZoneOffset.UTC));
        if (!store.setIfAbsent("billing:low-balance:" + userId + ":" + today, "1", Duration.ofDays(2))) {
            return;
        }
        String email = users.profile(userId).email();
        mail.queue(email, "Your Atrium balance is low", "Your Atrium balance is low: " + balance.toPlainString()
                + " USD, below " + LOW_BALANCE + " USD. Paid agents are refused once it cannot cover a call; "
                + "top up with POST /v1/billing/top-ups.\n");
        LOG.info(() -> "Low-balance notice queued for user " + userId);
    }
}
