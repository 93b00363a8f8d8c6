package dev.atrium.billing.control;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.billing.entity.AccountKind;
import dev.atrium.billing.entity.BillingAccount;
import dev.atrium.billing.entity.EntryKind;
import dev.atrium.billing.entity.JournalEntry;
import dev.atrium.billing.entity.Money;

/**
 * Posts journal entries. Each entry's accounts are locked (in id order, so two entries never wait on each other in a
 * circle), their cached balances move by the lines, and the entry's reference is unique: posting the same cause twice
 * posts nothing the second time. An account is created on first use; a user's balance account starts with the
 * configured sign-up credit ({@code atrium.billing.signup-credit}), itself an entry from promotions.
 */
@Stateless
public class Ledger {

    /** One amount on one account of an entry to post. */
    public record Line(AccountKind kind, long owner, BigDecimal amount) {
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperty(name = "atrium.billing.signup-credit", defaultValue = "0")
    BigDecimal signupCredit;

    /** Posts the entry; empty when an entry with this reference exists (nothing is posted twice). */
    public Optional<JournalEntry> post(EntryKind kind, String reference, Long actor, String memo, List<Line> lines) {
        return post(kind, reference, actor, memo, lines, null);
    }

    /** {@code occurred}: when the entry's cause happened (a usage's time), null for now. */
    public Optional<JournalEntry> post(EntryKind kind, String reference, Long actor, String memo, List<Line> lines,
                                       java.time.Instant occurred) {
        if (posted(reference)) {
            return Optional.empty();
        }
        var postings = new ArrayList<JournalEntry.Posting>();
        var locked = new java.util.HashMap<java.util.UUID, BillingAccount>();
        lines.stream().map(l -> account(l.kind(), l.owner())).sorted(Comparator.comparing(BillingAccount::id))
                .forEach(a -> locked.computeIfAbsent(a.id(), id -> lock(a)));
        for (Line l : lines) {
            BillingAccount account = locked.get(account(l.kind(), l.owner()).id());
            postings.add(new JournalEntry.Posting(account, l.amount()));
        }
        var entry = JournalEntry.post(kind, reference, actor, memo, postings, occurred, clock.instant());
        em.persist(entry);
        entry.lines().forEach(em::persist);
        return Optional.of(entry);
    }

    /** One entry to post with others in {@link #postAll}. */
    public record Request(EntryKind kind, String reference, Long actor, String memo, List<Line> lines,
                          java.time.Instant occurred) {
    }

    /**
     * Posts several entries in the caller's transaction, locking each account they touch once (in id order) rather
     * than once per entry: what makes a busy account such as the platform's revenue no bottleneck. Entries whose
     * reference is posted already are skipped; answers how many were posted.
     */
    public int postAll(List<Request> requests) {
        if (requests.isEmpty()) {
            return 0;
        }
        var references = requests.stream().map(Request::reference).toList();
        var done = new java.util.HashSet<>(em.createQuery("SELECT e.reference FROM JournalEntry e WHERE e.reference "
                + "IN :refs", String.class).setParameter("refs", references).getResultList());
        var todo = requests.stream().filter(r -> done.add(r.reference())).toList();
        var byKey = locked(todo.stream().flatMap(r -> r.lines().stream()).toList());
        var now = clock.instant();
        for (Request r : todo) {
            var postings = r.lines().stream().map(l -> new JournalEntry.Posting(byKey.get(l.kind() + ":" + l.owner()),
                    l.amount())).toList();
            var entry = JournalEntry.post(r.kind(), r.reference(), r.actor(), r.memo(), postings, r.occurred(), now);
            em.persist(entry);
            entry.lines().forEach(em::persist);
        }
        return todo.size();
    }

    /**
     * The accounts of the lines, created where missing, read afresh and locked with one query, in id order: keyed
     * by {@code kind:owner}.
     */
    private java.util.Map<String, BillingAccount> locked(List<Line> lines) {
        var owners = lines.stream().map(Line::owner).distinct().toList();
        var kinds = lines.stream().map(Line::kind).distinct().toList();
        var wanted = lines.stream().map(l -> l.kind() + ":" + l.owner()).collect(java.util.stream.Collectors.toSet());
        em.flush();
        var found = em.createQuery("SELECT a FROM BillingAccount a WHERE a.ownerId IN :owners AND a.kind IN :kinds",
                        BillingAccount.class).setParameter("owners", owners).setParameter("kinds", kinds)
                .getResultList();
        var byKey = new java.util.HashMap<String, BillingAccount>();
        found.stream().filter(a -> wanted.contains(a.kind() + ":" + a.ownerId()))
                .forEach(a -> byKey.put(a.kind() + ":" + a.ownerId(), a));
        for (Line l : lines) {
            byKey.computeIfAbsent(l.kind() + ":" + l.owner(), k -> account(l.kind(), l.owner()));
        }
        em.flush();
        var ids = byKey.values().stream().map(BillingAccount::id).sorted().toList();
        // one locking read of them all, in id order: concurrent batches take the locks in the same order
        em.createQuery("SELECT a FROM BillingAccount a WHERE a.id IN :ids ORDER BY a.id", BillingAccount.class)
                .setParameter("ids", ids).setLockMode(LockModeType.PESSIMISTIC_WRITE)
                .setHint("eclipselink.refresh", "true").getResultList();
        return byKey;
    }

    /** The accounts of this kind among the owners whose balance is below {@code threshold}. */
    public List<BillingAccount> below(AccountKind kind, java.util.Collection<Long> owners, BigDecimal threshold) {
        if (owners.isEmpty()) {
            return List.of();
        }
        em.flush();
        return em.createQuery("SELECT a FROM BillingAccount a WHERE a.kind = :kind AND a.ownerId IN :owners "
                        + "AND a.balance < :threshold", BillingAccount.class).setParameter("kind", kind)
                .setParameter("owners", owners).setParameter("threshold", threshold).getResultList();
    }

    public boolean posted(String reference) {
        return !em.createQuery("SELECT e.id FROM JournalEntry e WHERE e.reference = :r")
                .setParameter("r", reference).setMaxResults(1).getResultList().isEmpty();
    }

    /** The account of this kind and owner, created (for a user's balance with its sign-up credit) when missing. */
    public BillingAccount account(AccountKind kind, long owner) {
        var found = find(kind, owner);
        if (found.isPresent()) {
            return found.get();
        }
        // a concurrent first use of the same account waits for the other insert and then inserts nothing
        int created = em.createNativeQuery("INSERT INTO billing_accounts (id, kind, owner_id, balance, held, created_at)"
                        + " VALUES (?, ?, ?, 0, 0, ?) ON CONFLICT DO NOTHING")
                .setParameter(1, java.util.UUID.randomUUID()).setParameter(2, kind.name()).setParameter(3, owner)
                .setParameter(4, java.sql.Timestamp.from(clock.instant())).executeUpdate();
        BillingAccount account = find(kind, owner).orElseThrow();
        if (created == 1 && kind == AccountKind.USER_BALANCE && Money.of(signupCredit).signum() > 0) {
            BigDecimal credit = Money.of(signupCredit);
            post(EntryKind.SIGNUP_CREDIT, "signup:" + owner, null, "Sign-up credit",
                    List.of(new Line(AccountKind.PROMOTIONS, BillingAccount.PLATFORM, credit.negate()),
                            new Line(AccountKind.USER_BALANCE, owner, credit)));
        }
        return account;
    }

    public Optional<BillingAccount> find(AccountKind kind, long owner) {
        return em.createQuery("SELECT a FROM BillingAccount a WHERE a.kind = :kind AND a.ownerId = :owner",
                        BillingAccount.class).setParameter("kind", kind).setParameter("owner", owner)
                .getResultStream().findFirst();
    }

    /** The account's row, locked and read afresh, for changing its balance or hold. */
    public BillingAccount lock(BillingAccount account) {
        // what this transaction changed is written first: a refresh would otherwise drop it
        em.flush();
        BillingAccount managed = em.contains(account) ? account : em.find(BillingAccount.class, account.id());
        em.refresh(managed, LockModeType.PESSIMISTIC_WRITE);
        return managed;
    }
}
