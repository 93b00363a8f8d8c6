package dev.atrium.billing.entity;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** Part of a user's balance reserved for one paid invocation until billing settles it or the gateway releases it. */
@Entity
@Table(name = "billing_holds")
public class Hold {

    public enum Status {
        OPEN, SETTLED, RELEASED
    }

    @Id
    private UUID id;

    @Column(name = "account_id", nullable = false, updatable = false)
    private UUID accountId;

    @Column(name = "amount", nullable = false, updatable = false, precision = 19, scale = 6)
    private BigDecimal amount;

    @Enumerated(EnumType.STRING)
    @Column(name = "status", nullable = false)
    private Status status;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    @Column(name = "closed_at")
    private Instant closedAt;

    /** When the usage record that billing settles this hold with was written; null while the call is in flight. */
    @Column(name = "claimed_at", updatable = false, insertable = false)
    private Instant claimedAt;

    protected Hold() {
    }

    public Hold(UUID id, UUID accountId, BigDecimal amount, Instant now) {
        if (amount.signum() <= 0) {
            throw new IllegalArgumentException("A hold reserves a positive amount");
        }
        this.id = id;
        this.accountId = accountId;
        this.amount = Money.of(amount);
        this.status = Status.OPEN;
        this.createdAt = now;
    }

    /** Closes the hold; false when it was closed already (settled or released once only). */
    public boolean close(Status to, Instant now) {
        if (status != Status.OPEN || to == Status.OPEN) {
            return false;
        }
        this.status = to;
        this.closedAt = now;
        return true;
    }

    public UUID id() {
        return id;
    }

    public UUID accountId() {
        return accountId;
    }

    public BigDecimal amount() {
        return Money.of(amount);
    }

    public Status status() {
        return status;
    }

    /** Whether a usage record claimed it: then billing settles it, and nothing else releases it. */
    public boolean claimed() {
        return claimedAt != null;
    }

    public Instant createdAt() {
        return createdAt;
    }
}
