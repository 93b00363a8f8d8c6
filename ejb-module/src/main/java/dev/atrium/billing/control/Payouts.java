package dev.atrium.billing.control;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.billing.entity.AccountKind;
import dev.atrium.billing.entity.BillingAccount;
import dev.atrium.billing.entity.EntryKind;
import dev.atrium.billing.entity.Money;
import dev.atrium.billing.entity.Payout;
import dev.atrium.billing.entity.PayoutAccount;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.objects.ObjectStore;

/**
 * The monthly settlement (spec 03: monthly, minimum 50): for each developer with an earnings account, what they earned
 * up to the month's end and were not paid yet — the month's earnings plus what earlier months carried — rounded down
 * to cents. At least {@code atrium.billing.payout.minimum} (50.00) is paid: the entry {@code payout:<dev>:<month>}
 * moves it from their earnings to payouts, and a payout row records where it goes (a bank transfer in the month's
 * pain.001 file, or a Stripe Connect transfer, see {@link PayoutTransfers}). Less, or no payout account, is carried:
 * nothing posts and the next month's run finds it again. A month pays each developer once, however often its run is
 * started or restarted. A processor payout stays {@code pending} until Stripe's signed event confirms its transfer
 * ({@code paid}); a failed or reversed transfer makes it {@code failed} and posts its money back to the earnings
 * (entry {@code payout-returned:<payout id>}, once), so the next month's run pays it again.
 */
@Stateless
public class Payouts {

    public static final String FILES = "billing/payouts/";
    private static final int FILED_PER_UPDATE = 1000;
    private static final Logger LOG = Logger.getLogger(Payouts.class.getName());

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    Ledger ledger;

    @EJB
    PayoutAccounts accounts;

    @EJB
    PaymentsSetting payments;

    @Inject
    ObjectStore objects;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperties
    BillingConfig config;

    /** The month a run settles by default: the one before the current (UTC). */
    public YearMonth lastMonth() {
        return YearMonth.now(clock.withZone(ZoneOffset.UTC)).minusMonths(1);
    }

    /** Developers with an earnings account, by id, after {@code after}: the run's items. */
    public List<Long> developersAfter(long after, int limit) {
        return em.createQuery("SELECT a.ownerId FROM BillingAccount a WHERE a.kind = :kind AND a.ownerId > :after "
                        + "ORDER BY a.ownerId", Long.class)
                .setParameter("kind", AccountKind.DEVELOPER_EARNINGS).setParameter("after", after)
                .setMaxResults(limit).getResultList();
    }

    /**
     * Settles the developers for the month, in the caller's transaction (a chunk), and answers how many were paid. The
     * chunk is settled as a set, by a fixed number of statements whatever its size: its accounts locked up front in
     * the ledger's one order, what each developer held before the month's end read for all at once
     * ({@link Ledger#heldBefore}), the developers the month settled already and their payout accounts read by one
     * query each, then the payout rows and the entries posted together ({@link Ledger#postAll}).
     */
    public int settle(List<Long> developers, YearMonth month) {
        if (developers.isEmpty()) {
            return 0;
        }
        Instant end = month.plusMonths(1).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        var sorted = developers.stream().sorted().distinct().toList();
        var earnings = ledger.accounts(AccountKind.DEVELOPER_EARNINGS, sorted);
        // made, where missing, in the ledger's order of creation (kind, then owner), as a billing batch makes them
        sorted.stream().filter(d -> !earnings.containsKey(d)).forEach(d -> earnings.put(d,
                ledger.account(AccountKind.DEVELOPER_EARNINGS, d).id()));
        // every account the chunk may move, locked up front in the ledger's one order
        var chunkAccounts = new ArrayList<UUID>(earnings.values());
        chunkAccounts.add(ledger.account(AccountKind.PAYOUTS, BillingAccount.PLATFORM).id());
        ledger.lockInOrder(chunkAccounts);
        // the chunk's id range, which the unique (developer, month) index reads as one range whatever the plan; a
        // list of ids would be compared with every payout of the month while its statistics still say it is empty
        var settled = new HashSet<>(em.createQuery("SELECT p.developerId FROM Payout p WHERE p.month = :m "
                        + "AND p.developerId BETWEEN :first AND :last", Long.class).setParameter("m", month.toString())
                .setParameter("first", sorted.get(0)).setParameter("last", sorted.get(sorted.size() - 1))
                .getResultList());
        var held = ledger.heldBefore(earnings.values(), end);
        var payTo = new HashMap<Long, PayoutAccount>();
        em.createQuery("SELECT a FROM PayoutAccount a WHERE a.userId IN :ds", PayoutAccount.class)
                .setParameter("ds", sorted).getResultList().forEach(a -> payTo.put(a.userId(), a));
        Instant now = clock.instant();
        var entries = new ArrayList<Ledger.Request>();
        for (long developer : sorted) {
            if (settled.contains(developer)) {
                continue;
            }
            BigDecimal payable = held.getOrDefault(earnings.get(developer), Money.ZERO);
            BigDecimal amount = payable.setScale(2, RoundingMode.DOWN);
            Optional<PayoutAccount> to = Optional.ofNullable(payTo.get(developer)).filter(a ->
                    a.method() == PayoutAccount.Method.PROCESSOR ? a.connectedAccount() != null : a.iban() != null);
            if (amount.compareTo(config.payoutMinimum) < 0 || to.isEmpty()) {
                em.persist(Payout.carried(developer, month, payable,
                        to.isEmpty() && amount.compareTo(config.payoutMinimum) >= 0, now));
                continue;
            }
            em.persist(Payout.paid(developer, month, amount, to.get(),
                    to.get().method() == PayoutAccount.Method.PROCESSOR ? transferWaitsFor() : null, now));
            entries.add(new Ledger.Request(EntryKind.PAYOUT, "payout:" + developer + ":" + month, null,
                    "Payout for " + month + " (" + to.get().method().value() + ")",
                    List.of(new Ledger.Line(AccountKind.DEVELOPER_EARNINGS, developer, Money.of(amount).negate()),
                            new Ledger.Line(AccountKind.PAYOUTS, BillingAccount.PLATFORM, Money.of(amount))),
                    end.minusMillis(1)));
        }
        return ledger.postAll(entries);
    }

    /** What a new processor payout waits for: its transfer, or a processor that can send one. */
    private String transferWaitsFor() {
        return StripeProcessor.NAME.equals(payments.processor()) ? "transfer not sent yet"
                : "no transfer: processor payouts are Stripe Connect transfers and " + PaymentsSetting.ENV + " is "
                + payments.processor() + "; the month's next run with stripe sends it";
    }

    /** The month's processor payouts no transfer was sent for yet. */
    public List<Payout> awaitingTransfer(YearMonth month) {
        return em.createQuery("SELECT p FROM Payout p WHERE p.month = :m AND p.status = :status AND p.transferId IS "
                        + "NULL AND p.connectedAccount IS NOT NULL ORDER BY p.developerId", Payout.class)
                .setParameter("m", month.toString()).setParameter("status", Payout.Status.PENDING).getResultList();
    }

    /** Stripe accepted the payout's transfer: it waits for the event that confirms it. */
    public void transferred(UUID payoutId, String transferId) {
        locked(payoutId).transferred(transferId, clock.instant());
    }

    /** The payout's transfer could not be sent now; it stays pending, for {@code reason}. */
    public void waiting(UUID payoutId, String reason) {
        locked(payoutId).waiting(reason, clock.instant());
    }

    /** Stripe refused the payout's transfer: nothing moved, so the money goes back to the earnings. */
    public void refused(UUID payoutId, String reason) {
        returnToEarnings(locked(payoutId), reason);
    }

    /**
     * A Stripe event about a payout's transfer: success confirms a pending payout ({@code paid}), failure or reversal
     * fails it and posts its money back to the earnings, once. 404 for an unknown payout; 422 when the event names
     * another transfer, amount, currency or destination; 409 for a success after the payout failed (logged: an
     * operator must look). Answers the payout's status.
     */
    public Payout.Status transferEvent(StripeProcessor.TransferEvent event) {
        Payout payout = em.find(Payout.class, event.payoutId(), LockModeType.PESSIMISTIC_WRITE);
        if (payout == null || payout.connectedAccount() == null) {
            throw BusinessException.notFound("Payout");
        }
        String mismatch = mismatch(payout, event);
        if (mismatch != null) {
            LOG.warning(() -> "A Stripe " + event.type() + " event for payout " + payout.id() + " was refused: "
                    + mismatch);
            throw BusinessException.validation("The event does not match the payout: " + mismatch);
        }
        Instant now = clock.instant();
        // Stripe's event may come before its answer was recorded (or instead of it, when the answer was lost)
        payout.transferred(event.transferId(), now);
        if (event.outcome() == PaymentProcessor.Outcome.SUCCEEDED) {
            if (payout.status() == Payout.Status.FAILED) {
                LOG.severe(() -> "Stripe confirmed transfer " + event.transferId() + " of payout " + payout.id()
                        + ", which failed and was posted back to the earnings: an operator must reconcile it");
                throw BusinessException.conflict("The payout failed and its money went back to the earnings");
            }
            if (payout.confirm(now)) {
                LOG.info(() -> "Payout " + payout.id() + " paid by Stripe transfer " + event.transferId());
            }
        } else {
            returnToEarnings(payout, "Stripe: " + event.type());
        }
        return payout.status();
    }

    /** Why an event cannot be about the payout's transfer, or null when it can. */
    static String mismatch(Payout payout, StripeProcessor.TransferEvent event) {
        if (payout.transferId() != null && !payout.transferId().equals(event.transferId())) {
            return "another transfer";
        }
        if (event.currency() != null && !event.currency().equals(Money.CURRENCY)) {
            return "currency " + event.currency();
        }
        if (event.amount() == null || event.amount().compareTo(payout.amount()) != 0) {
            return "amount " + (event.amount() == null ? "missing" : event.amount().toPlainString());
        }
        if (event.destination() != null && !event.destination().equals(payout.connectedAccount())) {
            return "another destination";
        }
        return null;
    }

    private void returnToEarnings(Payout payout, String reason) {
        if (!payout.fail(reason, clock.instant())) {
            return;
        }
        ledger.post(EntryKind.PAYOUT_RETURNED, "payout-returned:" + payout.id(), null, "Payout for " + payout.month()
                        + " returned (" + reason + ")",
                List.of(new Ledger.Line(AccountKind.PAYOUTS, BillingAccount.PLATFORM, payout.amount().negate()),
                        new Ledger.Line(AccountKind.DEVELOPER_EARNINGS, payout.developerId(), payout.amount())));
        LOG.warning(() -> "Payout " + payout.id() + " of developer " + payout.developerId() + " failed (" + reason
                + "): " + payout.amount().toPlainString() + " back in the earnings");
    }

    private Payout locked(UUID payoutId) {
        return Optional.ofNullable(em.find(Payout.class, payoutId, LockModeType.PESSIMISTIC_WRITE))
                .orElseThrow(() -> BusinessException.notFound("Payout"));
    }

    /**
     * Writes the month's pain.001 file of bank payouts to the object store ({@code billing/payouts/<month>.xml}) and
     * marks them filed; answers how many transfers it holds. Writing it again gives the same transfers.
     */
    public int file(YearMonth month) {
        var bank = em.createQuery("SELECT p FROM Payout p WHERE p.month = :m AND p.status IN :statuses "
                        + "ORDER BY p.developerId", Payout.class).setParameter("m", month.toString())
                .setParameter("statuses", List.of(Payout.Status.PENDING_FILE, Payout.Status.FILED)).getResultList();
        if (bank.isEmpty()) {
            return 0;
        }
        String iban = config.payoutDebtorIban.filter(s -> !s.isBlank()).orElseThrow(() -> new IllegalStateException(
                "atrium.billing.payout.debtor-iban is not set: the payout file needs the account that pays"));
        var transfers = bank.stream().map(p -> new Pain001.Transfer(p.id().toString().replace("-", "")
                        .substring(0, 32), p.amount(), Money.CURRENCY, p.holderName(), p.iban(), p.bic(),
                "Atrium payout " + month)).toList();
        byte[] xml = Pain001.write("ATRIUM-PAYOUT-" + month, clock.instant(), month.plusMonths(1).atDay(1),
                new Pain001.Debtor(config.payoutDebtorName, iban, config.payoutDebtorBic.orElse(null)), transfers);
        objects.put(FILES + month + ".xml", new ByteArrayInputStream(xml), "application/xml");
        filed(bank.stream().filter(p -> p.status() == Payout.Status.PENDING_FILE).map(Payout::id).toList());
        LOG.info(() -> "Payout file for " + month + ": " + transfers.size() + " transfers, " + xml.length + " bytes");
        return transfers.size();
    }

    /**
     * Marks the payouts filed, a thousand by a statement, by JDBC: marked entity by entity they would be as many
     * updates at the commit, and a JPQL bulk update is also applied to every managed payout in memory, for each id.
     */
    private void filed(List<UUID> ids) {
        // the transaction's own connection is bound to the persistence context by a flush
        em.flush();
        var connection = em.unwrap(Connection.class);
        for (int from = 0; from < ids.size(); from += FILED_PER_UPDATE) {
            var some = ids.subList(from, Math.min(ids.size(), from + FILED_PER_UPDATE));
            try (var update = connection.prepareStatement("UPDATE billing_payouts SET status = 'FILED' WHERE status "
                    + "= 'PENDING_FILE' AND id IN (" + String.join(", ", Collections.nCopies(some.size(), "?")) + ")")) {
                for (int i = 0; i < some.size(); i++) {
                    update.setObject(i + 1, some.get(i));
                }
                update.executeUpdate();
            } catch (SQLException e) {
                throw new PersistenceException("Marking the payouts filed failed", e);
            }
        }
    }

    /** The month's payouts, by developer. */
    public List<Payout> of(YearMonth month) {
        return em.createQuery("SELECT p FROM Payout p WHERE p.month = :m ORDER BY p.developerId", Payout.class)
                .setParameter("m", month.toString()).getResultList();
    }

    /** The month's pain.001 file. */
    public ObjectStore.StoredObject fileOf(YearMonth month) {
        return objects.get(FILES + month + ".xml").orElseThrow(() -> BusinessException.notFound("Payout file"));
    }
}
