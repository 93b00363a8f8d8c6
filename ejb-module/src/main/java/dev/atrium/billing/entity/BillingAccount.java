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

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * One account of the ledger with its cached balance (the sum of its journal lines) and, for a user's balance, the
 * part held for invocations in flight. Changed only by the ledger while it holds the row's lock.
 */
@Entity
@Table(name = "billing_accounts")
public class BillingAccount {

    public static final long PLATFORM = 0;

    @Id
    private UUID id;

    @Enumerated(EnumType.STRING)
    @Column(name = "kind", nullable = false, updatable = false)
    private AccountKind kind;

    @Column(name = "owner_id", nullable = false, updatable = false)
    private long ownerId;

    @Column(name = "balance", nullable = false, precision = 19, scale = 6)
    private BigDecimal balance;

    @Column(name = "held", nullable = false, precision = 19, scale = 6)
    private BigDecimal held;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    protected BillingAccount() {
    }

    public BillingAccount(AccountKind kind, long ownerId, Instant now) {
        if (kind.perUser() == (ownerId == PLATFORM)) {
            throw new IllegalArgumentException(kind + " cannot belong to owner " + ownerId);
        }
        this.id = UUID.randomUUID();
        this.kind = kind;
        this.ownerId = ownerId;
        this.balance = Money.ZERO;
        this.held = Money.ZERO;
        this.createdAt = now;
    }

    /**
     * A journal line on this account. A user's balance never goes below zero: a line that would take it there is
     * refused (402/30001) and its whole entry with it.
     */
    void apply(BigDecimal amount) {
        BigDecimal after = Money.of(balance.add(amount));
        if (kind == AccountKind.USER_BALANCE && amount.signum() < 0 && after.signum() < 0) {
            throw overdraft(ownerId, balance, amount);
        }
        this.balance = after;
    }

    /** The refusal of a line that would take user {@code owner}'s balance below zero. */
    public static BusinessException overdraft(long owner, BigDecimal balance, BigDecimal amount) {
        return new BusinessException(Problem.PAYMENT_REQUIRED, "Insufficient balance",
                "Moving " + Money.of(amount).toPlainString() + " USD would take the balance of user " + owner
                        + " (" + Money.of(balance).toPlainString() + " USD) below zero");
    }

    public UUID id() {
        return id;
    }

    public AccountKind kind() {
        return kind;
    }

    public long ownerId() {
        return ownerId;
    }

    public BigDecimal balance() {
        return Money.of(balance);
    }

    public BigDecimal held() {
        return Money.of(held);
    }

    /** What may still be spent: the balance less what is held. */
    public BigDecimal available() {
        return Money.of(balance.subtract(held));
    }
}
