package dev.atrium.billing.entity;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One line of a journal entry: an amount on one account. Never changed once written. */
@Entity
@Table(name = "journal_lines")
public class JournalLine {

    @Id
    private UUID id;

    @Column(name = "entry_id", nullable = false, updatable = false)
    private UUID entryId;

    @Column(name = "line_no", nullable = false, updatable = false)
    private int lineNo;

    @Column(name = "account_id", nullable = false, updatable = false)
    private UUID accountId;

    @Column(name = "amount", nullable = false, updatable = false, precision = 19, scale = 6)
    private BigDecimal amount;

    @Column(name = "posted_at", nullable = false, updatable = false)
    private Instant postedAt;

    /** Its entry's {@code occurred_at}, repeated so that an account's lines can be found by it through an index. */
    @Column(name = "occurred_at", updatable = false)
    private Instant occurredAt;

    protected JournalLine() {
    }

    JournalLine(UUID entryId, int lineNo, UUID accountId, BigDecimal amount, Instant occurredAt, Instant postedAt) {
        this.id = LedgerIds.next();
        this.entryId = entryId;
        this.lineNo = lineNo;
        this.accountId = accountId;
        this.amount = amount;
        this.postedAt = postedAt;
        this.occurredAt = occurredAt;
    }

    public UUID id() {
        return id;
    }

    public UUID entryId() {
        return entryId;
    }

    public int lineNo() {
        return lineNo;
    }

    public UUID accountId() {
        return accountId;
    }

    public BigDecimal amount() {
        return Money.of(amount);
    }

    public Instant postedAt() {
        return postedAt;
    }

    public Instant occurredAt() {
        return occurredAt;
    }
}
