package dev.atrium.billing.entity;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;

/**
 * One movement of money: its kind, a reference that names what caused it (unique, so the same cause never posts
 * twice: {@code usage:<id>}, {@code top-up:<id>}, …), who posted it and why, and lines on accounts that sum to zero.
 * Immutable: a correction is a new entry.
 */
@Entity
@Table(name = "journal_entries")
public class JournalEntry {

    public static final int REFERENCE_MAX = 120;
    public static final int MEMO_MAX = 500;

    /** An amount on an account, before the entry exists. */
    public record Posting(BillingAccount account, BigDecimal amount) {
    }

    @Id
    private UUID id;

    @Enumerated(EnumType.STRING)
    @Column(name = "kind", nullable = false, updatable = false)
    private EntryKind kind;

    @Column(name = "reference", nullable = false, updatable = false, length = REFERENCE_MAX)
    private String reference;

    @Column(name = "actor_id", updatable = false)
    private Long actorId;

    @Column(name = "memo", updatable = false, length = MEMO_MAX)
    private String memo;

    @Column(name = "occurred_at", nullable = false, updatable = false)
    private Instant occurredAt;

    @Column(name = "posted_at", nullable = false, updatable = false)
    private Instant postedAt;

    @Transient
    private List<JournalLine> lines = List.of();

    protected JournalEntry() {
    }

    private JournalEntry(EntryKind kind, String reference, Long actorId, String memo, Instant occurred, Instant now) {
        this.id = LedgerIds.next();
        this.kind = kind;
        this.reference = reference;
        this.actorId = actorId;
        this.memo = memo == null || memo.length() <= MEMO_MAX ? memo : memo.substring(0, MEMO_MAX - 1) + "…";
        this.occurredAt = occurred == null ? now : occurred;
        this.postedAt = now;
    }

    /**
     * A balanced entry: at least two postings, none zero, summing to zero. Applies each amount to its account, whose
     * row the caller holds locked.
     */
    public static JournalEntry post(EntryKind kind, String reference, Long actorId, String memo,
                                    List<Posting> postings, Instant now) {
        return post(kind, reference, actorId, memo, postings, null, now);
    }

    /** {@code occurred}: when the cause happened (a usage's time), null for now. */
    public static JournalEntry post(EntryKind kind, String reference, Long actorId, String memo,
                                    List<Posting> postings, Instant occurred, Instant now) {
        var entry = compose(kind, reference, actorId, memo, postings.stream()
                .map(p -> new Amount(p.account().id(), p.amount())).toList(), occurred, now);
        for (Posting p : postings) {
            if (Money.of(p.amount()).signum() != 0) {
                p.account().apply(Money.of(p.amount()));
            }
        }
        return entry;
    }

    /** An amount on an account named by its id, for entries whose accounts the caller moves itself. */
    public record Amount(UUID accountId, BigDecimal amount) {
    }

    /**
     * A balanced entry and its lines, checked as {@link #post} checks them, without touching the accounts: for the
     * caller that moves each account's cached balance once for many entries ({@code Ledger.postAll}).
     */
    public static JournalEntry compose(EntryKind kind, String reference, Long actorId, String memo,
                                       List<Amount> amounts, Instant occurred, Instant now) {
        if (reference == null || reference.isBlank() || reference.length() > REFERENCE_MAX) {
            throw new IllegalArgumentException("A journal entry needs a reference of at most " + REFERENCE_MAX);
        }
        var nonZero = amounts.stream().filter(a -> Money.of(a.amount()).signum() != 0).toList();
        if (nonZero.size() < 2) {
            throw new IllegalArgumentException("A journal entry moves money between at least two accounts");
        }
        BigDecimal sum = nonZero.stream().map(a -> Money.of(a.amount())).reduce(BigDecimal.ZERO, BigDecimal::add);
        if (sum.signum() != 0) {
            throw new IllegalArgumentException("A journal entry's lines sum to zero, not " + sum);
        }
        var entry = new JournalEntry(kind, reference, actorId, memo, occurred, now);
        var lines = new ArrayList<JournalLine>();
        for (Amount a : nonZero) {
            lines.add(new JournalLine(entry.id, lines.size() + 1, a.accountId(), Money.of(a.amount()),
                    entry.occurredAt, now));
        }
        entry.lines = List.copyOf(lines);
        return entry;
    }

    public List<JournalLine> lines() {
        return lines;
    }

    public UUID id() {
        return id;
    }

    public EntryKind kind() {
        return kind;
    }

    public String reference() {
        return reference;
    }

    public Long actorId() {
        return actorId;
    }

    public String memo() {
        return memo;
    }

    public Instant occurredAt() {
        return occurredAt;
    }

    public Instant postedAt() {
        return postedAt;
    }
}
