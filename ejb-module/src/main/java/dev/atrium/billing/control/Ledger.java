package dev.atrium.billing.control;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

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
    /** The order every writer makes missing accounts in (see {@link #accountIds}). */
    static final Comparator<Line> CREATION_ORDER = Comparator
            .comparing((Line l) -> l.kind().name()).thenComparingLong(Line::owner);

    public record Line(AccountKind kind, long owner, BigDecimal amount) {
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperties
    BillingConfig config;

    /** Posts the entry; empty when an entry with this reference exists (nothing is posted twice). */
    public Optional<JournalEntry> post(EntryKind kind, String reference, Long actor, String memo, List<Line> lines) {
        return post(kind, reference, actor, memo, lines, null);
    }

    /** {@code occurred}: when the entry's cause happened (a usage's time), null for now. */
    public Optional<JournalEntry> post(EntryKind kind, String reference, Long actor, String memo, List<Line> lines,
                                       Instant occurred) {
        if (posted(reference)) {
            return Optional.empty();
        }
        var postings = new ArrayList<JournalEntry.Posting>();
        var locked = new HashMap<UUID, BillingAccount>();
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
                          Instant occurred) {
    }

    /** {@link #postAll(List, java.util.Map)} with no holds to release. */
    public int postAll(List<Request> requests) {
        return postAll(requests, Map.of());
    }

    /**
     * Posts several entries in the caller's transaction (the billing queue's batches) and answers how many were
     * posted; entries whose reference is posted already are skipped. Built for throughput without giving up the
     * ledger's rules: each entry is checked as {@link #post} checks it and written with its lines by JDBC batches
     * (the same rows {@link #post} persists), but the accounts' cached balances
     * move once per account for the whole batch, by one {@code UPDATE … SET balance = balance + ?} each, in account-id
     * order (so concurrent batches never wait on each other in a circle), as the transaction's last statements. The
     * rows of busy accounts (the platform's revenue and model cost, in every batch) are thus locked only from that
     * update to the commit, and never with {@code SELECT … FOR UPDATE}, which would also block the other batches'
     * foreign-key checks of their lines on those rows until this one commits. {@code releasedHolds}: amounts per
     * account to take off {@code held} in the same update (holds the caller has closed in this transaction).
     */
    public int postAll(List<Request> requests, Map<UUID, BigDecimal> releasedHolds) {
        var todo = List.<Request>of();
        if (!requests.isEmpty()) {
            var references = requests.stream().map(Request::reference).toList();
            var done = new HashSet<>(em.createQuery("SELECT e.reference FROM JournalEntry e "
                    + "WHERE e.reference IN :refs", String.class).setParameter("refs", references).getResultList());
            todo = requests.stream().filter(r -> done.add(r.reference())).toList();
        }
        var ids = accountIds(todo.stream().flatMap(r -> r.lines().stream()).toList());
        var now = clock.instant();
        var moves = new TreeMap<UUID, BigDecimal[]>();
        var entries = new ArrayList<JournalEntry>();
        for (Request r : todo) {
            var entry = JournalEntry.compose(r.kind(), r.reference(), r.actor(), r.memo(), r.lines().stream()
                    .map(l -> new JournalEntry.Amount(ids.get(key(l)), l.amount())).toList(), r.occurred(), now);
            entries.add(entry);
            for (var line : entry.lines()) {
                moves.computeIfAbsent(line.accountId(), id -> new BigDecimal[] {Money.ZERO, Money.ZERO})[0] =
                        moves.get(line.accountId())[0].add(line.amount());
            }
        }
        releasedHolds.forEach((account, amount) -> moves.computeIfAbsent(account,
                id -> new BigDecimal[] {Money.ZERO, Money.ZERO})[1] = moves.get(account)[1].add(amount));
        if (moves.isEmpty()) {
            return 0;
        }
        // what the caller changed through the persistence context is written before the statements below
        em.flush();
        var connection = em.unwrap(Connection.class);
        var keys = new ArrayList<>(moves.keySet());
        try {
            // the entries and lines next, while no account row is locked by this transaction
            insert(connection, entries);
        } catch (SQLException e) {
            throw new PersistenceException("Writing the batch's journal entries failed", e);
        }
        List<UUID> refused;
        try {
            refused = "PostgreSQL".equals(connection.getMetaData().getDatabaseProductName())
                    ? moveAll(connection, keys, moves) : moveEach(connection, keys, moves);
        } catch (SQLException e) {
            throw new PersistenceException("Moving the batch's account balances failed", e);
        }
        if (!refused.isEmpty()) {
            var account = em.find(BillingAccount.class, refused.get(0));
            if (account == null) {
                throw new IllegalStateException("A billing account of the batch has gone");
            }
            throw BillingAccount.overdraft(account.ownerId(), account.balance(), moves.get(refused.get(0))[0]);
        }
        return todo.size();
    }

    /**
     * The moves by one update per account, in the keys' (id) order, in one JDBC batch; answers the accounts not
     * moved (gone, or a user's balance that would go below zero: a user's balance never does, so such a move is made
     * only if it stays at or above zero).
     */
    private static List<UUID> moveEach(Connection connection, List<UUID> keys, Map<UUID, BigDecimal[]> moves)
            throws SQLException {
        var refused = new ArrayList<UUID>();
        try (var update = connection.prepareStatement("UPDATE billing_accounts SET balance = balance + ?, "
                + "held = held - ? WHERE id = ? AND (kind <> 'USER_BALANCE' OR ? >= 0 OR balance + ? >= 0)")) {
            for (var key : keys) {
                var move = moves.get(key);
                update.setBigDecimal(1, move[0]);
                update.setBigDecimal(2, move[1]);
                update.setObject(3, key);
                update.setBigDecimal(4, move[0]);
                update.setBigDecimal(5, move[0]);
                update.addBatch();
            }
            int[] counts = update.executeBatch();
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] == 0) {
                    refused.add(keys.get(i));
                }
            }
        }
        return refused;
    }

    /**
     * On PostgreSQL the same moves by two statements whatever the batch's size: the rows locked in id order
     * ({@code FOR NO KEY UPDATE}, as an update locks them: other batches' foreign-key checks do not wait), then all
     * moved by one update joined to the moves as arrays. An update per account cost PostgreSQL about 20 µs each, a
     * thousand per billing batch (pg_stat_statements, bench-billing).
     */
    private static List<UUID> moveAll(Connection connection, List<UUID> keys, Map<UUID, BigDecimal[]> moves)
            throws SQLException {
        var ids = connection.createArrayOf("uuid", keys.toArray());
        try (var lock = connection.prepareStatement("SELECT id FROM billing_accounts WHERE id = ANY (?) ORDER BY id "
                + "FOR NO KEY UPDATE")) {
            lock.setArray(1, ids);
            lock.executeQuery().close();
        }
        var moved = new HashSet<UUID>();
        try (var update = connection.prepareStatement("UPDATE billing_accounts a SET balance = a.balance + m.amount, "
                + "held = a.held - m.released FROM unnest(?, ?, ?) AS m (id, amount, released) WHERE a.id = m.id "
                + "AND (a.kind <> 'USER_BALANCE' OR m.amount >= 0 OR a.balance + m.amount >= 0) RETURNING a.id")) {
            update.setArray(1, ids);
            update.setArray(2, connection.createArrayOf("numeric", keys.stream().map(k -> moves.get(k)[0]).toArray()));
            update.setArray(3, connection.createArrayOf("numeric", keys.stream().map(k -> moves.get(k)[1]).toArray()));
            try (var rows = update.executeQuery()) {
                while (rows.next()) {
                    moved.add(rows.getObject(1, UUID.class));
                }
            }
        }
        return keys.stream().filter(k -> !moved.contains(k)).toList();
    }

    /**
     * Writes the entries and their lines by two JDBC batches (the driver sends them as multi-row inserts), not through
     * the persistence context: registering a batch's thousands of new entities, computing their change sets at each
     * flush and at the commit took most of a billing consumer's CPU (bench-billing, JFR). Nothing reads them back
     * as entities in this transaction; the unique reference still refuses an entry posted meanwhile by another.
     */
    private static void insert(Connection connection, List<JournalEntry> entries) throws SQLException {
        if (entries.isEmpty()) {
            return;
        }
        try (var insert = connection.prepareStatement("INSERT INTO journal_entries (id, kind, reference, actor_id, "
                + "memo, occurred_at, posted_at) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            for (var entry : entries) {
                insert.setObject(1, entry.id());
                insert.setString(2, entry.kind().name());
                insert.setString(3, entry.reference());
                insert.setObject(4, entry.actorId(), Types.BIGINT);
                insert.setString(5, entry.memo());
                insert.setObject(6, OffsetDateTime.ofInstant(entry.occurredAt(), ZoneOffset.UTC));
                insert.setObject(7, OffsetDateTime.ofInstant(entry.postedAt(), ZoneOffset.UTC));
                insert.addBatch();
            }
            insert.executeBatch();
        }
        try (var insert = connection.prepareStatement("INSERT INTO journal_lines (id, entry_id, line_no, account_id, "
                + "amount, occurred_at, posted_at) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            for (var entry : entries) {
                for (var line : entry.lines()) {
                    insert.setObject(1, line.id());
                    insert.setObject(2, line.entryId());
                    insert.setInt(3, line.lineNo());
                    insert.setObject(4, line.accountId());
                    insert.setBigDecimal(5, line.amount());
                    insert.setObject(6, OffsetDateTime.ofInstant(line.occurredAt(), ZoneOffset.UTC));
                    insert.setObject(7, OffsetDateTime.ofInstant(line.postedAt(), ZoneOffset.UTC));
                    insert.addBatch();
                }
            }
            insert.executeBatch();
        }
    }

    /** An account by what names it (a record, not a string: a batch looks one up for each of its lines). */
    private record AccountKey(AccountKind kind, long owner) {
    }

    private static AccountKey key(Line line) {
        return new AccountKey(line.kind(), line.owner());
    }

    /** The ids of the lines' accounts, created where missing, keyed by kind and owner; nothing locked. */
    private Map<AccountKey, UUID> accountIds(List<Line> lines) {
        var byKey = new HashMap<AccountKey, UUID>();
        if (lines.isEmpty()) {
            return byKey;
        }
        var owners = lines.stream().map(Line::owner).distinct().toList();
        var kinds = lines.stream().map(Line::kind).distinct().toList();
        var wanted = lines.stream().map(Ledger::key).collect(Collectors.toSet());
        for (Object[] row : em.createQuery("SELECT a.id, a.kind, a.ownerId FROM BillingAccount a "
                        + "WHERE a.ownerId IN :owners AND a.kind IN :kinds", Object[].class)
                .setParameter("owners", owners).setParameter("kinds", kinds).getResultList()) {
            var key = new AccountKey((AccountKind) row[1], ((Number) row[2]).longValue());
            if (wanted.contains(key)) {
                byKey.put(key, (UUID) row[0]);
            }
        }
        // missing accounts are made in the ledger's one order of creation (kind, then owner): two transactions making
        // the same new accounts in opposite orders would each wait for the other's insert into the unique index
        lines.stream().filter(l -> !byKey.containsKey(key(l))).sorted(CREATION_ORDER)
                .forEach(l -> byKey.computeIfAbsent(key(l), k -> account(l.kind(), l.owner()).id()));
        return byKey;
    }

    /** The accounts of this kind among the owners whose balance is below {@code threshold}. */
    public List<BillingAccount> below(AccountKind kind, Collection<Long> owners, BigDecimal threshold) {
        if (owners.isEmpty()) {
            return List.of();
        }
        em.flush();
        return em.createQuery("SELECT a FROM BillingAccount a WHERE a.kind = :kind AND a.ownerId IN :owners "
                        + "AND a.balance < :threshold", BillingAccount.class).setParameter("kind", kind)
                .setParameter("owners", owners).setParameter("threshold", threshold)
                // postAll moves balances by SQL: the managed accounts are read again
                .setHint("eclipselink.refresh", "true").getResultList();
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
                .setParameter(1, UUID.randomUUID()).setParameter(2, kind.name()).setParameter(3, owner)
                .setParameter(4, Timestamp.from(clock.instant())).executeUpdate();
        BillingAccount account = find(kind, owner).orElseThrow();
        if (created == 1 && kind == AccountKind.USER_BALANCE && Money.of(config.signupCredit).signum() > 0) {
            BigDecimal credit = Money.of(config.signupCredit);
            post(EntryKind.SIGNUP_CREDIT, "signup:" + owner, null, "Sign-up credit",
                    List.of(new Line(AccountKind.PROMOTIONS, BillingAccount.PLATFORM, credit.negate()),
                            new Line(AccountKind.USER_BALANCE, owner, credit)));
        }
        return account;
    }

    /** The owner of the account {@code accountId}, if it exists. */
    public Optional<Long> owner(UUID accountId) {
        return Optional.ofNullable(em.find(BillingAccount.class, accountId)).map(BillingAccount::ownerId);
    }

    public Optional<BillingAccount> find(AccountKind kind, long owner) {
        return em.createQuery("SELECT a FROM BillingAccount a WHERE a.kind = :kind AND a.ownerId = :owner",
                        BillingAccount.class).setParameter("kind", kind).setParameter("owner", owner)
                .getResultStream().findFirst();
    }

    /**
     * The account's row, locked and read afresh, for changing its balance or hold. Every writer of accounts takes
     * their row locks the same way and in the same order (docs/decisions/billing.md, "One lock order"): by an update of
     * the row (PostgreSQL's {@code FOR NO KEY UPDATE}, which the foreign-key checks of other transactions' journal
     * lines do not wait for, unlike {@code SELECT … FOR UPDATE}), in ascending account id.
     */
    public BillingAccount lock(BillingAccount account) {
        // what this transaction changed is written first: a refresh would otherwise drop it
        em.flush();
        em.createNativeQuery("UPDATE billing_accounts SET held = held WHERE id = ?").setParameter(1, account.id())
                .executeUpdate();
        BillingAccount managed = em.contains(account) ? account : em.find(BillingAccount.class, account.id());
        em.refresh(managed);
        return managed;
    }

    /**
     * Locks several accounts at once, in ascending id, before a transaction that writes several entries over them
     * (a payout chunk): a later entry of the chunk then never waits for an account that a billing batch holding one
     * of the chunk's earlier accounts is waiting for.
     */
    public void lockInOrder(Collection<UUID> accountIds) {
        em.flush();
        // one JDBC batch: its updates run one after the other in the order given, in one round trip
        try (var update = em.unwrap(Connection.class).prepareStatement(
                "UPDATE billing_accounts SET held = held WHERE id = ?")) {
            for (var id : new TreeSet<>(accountIds)) {
                update.setObject(1, id);
                update.addBatch();
            }
            update.executeBatch();
        } catch (SQLException e) {
            throw new PersistenceException("Locking the accounts failed", e);
        }
    }

    /**
     * What each account holds from causes that happened before {@code end}: its cached balance less its lines whose
     * entry's cause happened at or after {@code end}. Those lines were posted at or after {@code end}, or caused later
     * than posted (or written without the time), and both are index ranges (the lines' (account, posted) index, and
     * on PostgreSQL the partial index of the second kind, migration V75), so the cost follows the lines after
     * {@code end}, not the accounts' history. Exact only while this transaction holds the accounts locked
     * ({@link #lockInOrder}): no other writer can then move their balances or commit lines on them.
     */
    public Map<UUID, BigDecimal> heldBefore(Collection<UUID> accountIds, Instant end) {
        var held = new HashMap<UUID, BigDecimal>();
        if (accountIds.isEmpty()) {
            return held;
        }
        em.flush();
        var ids = List.copyOf(accountIds);
        for (Object[] row : em.createQuery("SELECT a.id, a.balance FROM BillingAccount a WHERE a.id IN :ids",
                Object[].class).setParameter("ids", ids).getResultList()) {
            held.put((UUID) row[0], Money.of((BigDecimal) row[1]));
        }
        // the candidates' entries decide; a line written without its cause's time (by hand) is always a candidate.
        // Every kind is named so that PostgreSQL may also start from the entries by their (kind, occurred) index when
        // few were caused after the end, rather than scan them all.
        for (Object[] row : em.createQuery("SELECT l.accountId, SUM(l.amount) FROM JournalLine l, JournalEntry e "
                        + "WHERE e.id = l.entryId AND l.accountId IN :ids AND (l.postedAt >= :end OR l.occurredAt "
                        + "IS NULL OR l.occurredAt > l.postedAt) AND e.kind IN :kinds AND e.occurredAt >= :end "
                        + "GROUP BY l.accountId", Object[].class)
                .setParameter("ids", ids).setParameter("kinds", List.of(EntryKind.values()))
                .setParameter("end", end).getResultList()) {
            held.computeIfPresent((UUID) row[0], (id, balance) -> Money.of(balance.subtract((BigDecimal) row[1])));
        }
        return held;
    }

    /** The accounts of this kind owned by {@code owners}, by owner (none made). */
    public Map<Long, UUID> accounts(AccountKind kind, Collection<Long> owners) {
        var found = new HashMap<Long, UUID>();
        if (owners.isEmpty()) {
            return found;
        }
        for (Object[] row : em.createQuery("SELECT a.ownerId, a.id FROM BillingAccount a WHERE a.kind = :kind "
                        + "AND a.ownerId IN :owners", Object[].class).setParameter("kind", kind)
                .setParameter("owners", List.copyOf(owners)).getResultList()) {
            found.put((Long) row[0], (UUID) row[1]);
        }
        return found;
    }
}
