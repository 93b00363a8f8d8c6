package dev.atrium.billing.control;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import org.eclipse.microprofile.config.inject.ConfigProperty;

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
 * pain.001 file, or the processor). Less, or no payout account, is carried: nothing posts and the next month's run
 * finds it again. A month pays each developer once, however often its run is started or restarted.
 */
@Stateless
public class Payouts {

    public static final String FILES = "billing/payouts/";
    private static final Logger LOG = Logger.getLogger(Payouts.class.getName());

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    Ledger ledger;

    @EJB
    PayoutAccounts accounts;

    @Inject
    ObjectStore objects;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperty(name = "atrium.billing.payout.minimum", defaultValue = "50.00")
    BigDecimal minimum;

    @Inject
    @ConfigProperty(name = "atrium.billing.payout.debtor-name", defaultValue = "Atrium")
    String debtorName;

    @Inject
    @ConfigProperty(name = "atrium.billing.payout.debtor-iban")
    Optional<String> debtorIban;

    @Inject
    @ConfigProperty(name = "atrium.billing.payout.debtor-bic")
    Optional<String> debtorBic;

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

    /** Settles the developers for the month, in the caller's transaction (a chunk). Answers how many were paid. */
    public int settle(List<Long> developers, YearMonth month) {
        Instant end = month.plusMonths(1).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        int paid = 0;
        // every account the chunk may move, locked up front in the ledger's one order
        var chunkAccounts = new java.util.ArrayList<java.util.UUID>();
        developers.forEach(d -> chunkAccounts.add(ledger.account(AccountKind.DEVELOPER_EARNINGS, d).id()));
        chunkAccounts.add(ledger.account(AccountKind.PAYOUTS, BillingAccount.PLATFORM).id());
        ledger.lockInOrder(chunkAccounts);
        for (long developer : developers) {
            if (!em.createQuery("SELECT p.id FROM Payout p WHERE p.developerId = :d AND p.month = :m")
                    .setParameter("d", developer).setParameter("m", month.toString()).getResultList().isEmpty()) {
                continue;
            }
            BillingAccount earnings = ledger.lock(ledger.account(AccountKind.DEVELOPER_EARNINGS, developer));
            BigDecimal upToEnd = (BigDecimal) em.createQuery("SELECT COALESCE(SUM(l.amount), 0) FROM JournalLine l, "
                            + "JournalEntry e WHERE e.id = l.entryId AND l.accountId = :account AND e.occurredAt < :end")
                    .setParameter("account", earnings.id()).setParameter("end", end).getSingleResult();
            BigDecimal payable = Money.of(upToEnd);
            BigDecimal amount = payable.setScale(2, RoundingMode.DOWN);
            Optional<PayoutAccount> to = accounts.of(developer)
                    .filter(a -> a.method() == PayoutAccount.Method.PROCESSOR || a.iban() != null);
            Instant now = clock.instant();
            if (amount.compareTo(minimum) < 0 || to.isEmpty()) {
                em.persist(Payout.carried(developer, month, payable, to.isEmpty() && amount.compareTo(minimum) >= 0,
                        now));
                continue;
            }
            var payout = Payout.paid(developer, month, amount, to.get(), now);
            em.persist(payout);
            ledger.post(EntryKind.PAYOUT, "payout:" + developer + ":" + month, null, "Payout for " + month + " ("
                            + to.get().method().value() + ")",
                    List.of(new Ledger.Line(AccountKind.DEVELOPER_EARNINGS, developer, Money.of(amount).negate()),
                            new Ledger.Line(AccountKind.PAYOUTS, BillingAccount.PLATFORM, Money.of(amount))),
                    end.minusMillis(1));
            paid++;
        }
        return paid;
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
        String iban = debtorIban.filter(s -> !s.isBlank()).orElseThrow(() -> new IllegalStateException(
                "atrium.billing.payout.debtor-iban is not set: the payout file needs the account that pays"));
        var transfers = bank.stream().map(p -> new Pain001.Transfer(p.id().toString().replace("-", "")
                        .substring(0, 32), p.amount(), Money.CURRENCY, p.holderName(), p.iban(), p.bic(),
                "Atrium payout " + month)).toList();
        byte[] xml = Pain001.write("ATRIUM-PAYOUT-" + month, clock.instant(), month.plusMonths(1).atDay(1),
                new Pain001.Debtor(debtorName, iban, debtorBic.orElse(null)), transfers);
        objects.put(FILES + month + ".xml", new ByteArrayInputStream(xml), "application/xml");
        bank.forEach(Payout::filed);
        LOG.info(() -> "Payout file for " + month + ": " + transfers.size() + " transfers, " + xml.length + " bytes");
        return transfers.size();
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
