package dev.atrium.billing.entity;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import dev.atrium.platform.error.BusinessException;

/**
 * A user's request to add money to their balance, credited once when its payment processor confirms it. Amounts
 * are whole cents from {@value #MIN} to {@value #MAX} USD.
 */
@Entity
@Table(name = "billing_top_ups")
public class TopUp {

    public static final String MIN = "1.00";
    public static final String MAX = "10000.00";

    public enum Status {
        PENDING, SUCCEEDED, FAILED;

        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Id
    private UUID id;

    @Column(name = "user_id", nullable = false, updatable = false)
    private long userId;

    @Column(name = "amount", nullable = false, updatable = false, precision = 19, scale = 6)
    private BigDecimal amount;

    @Column(name = "processor", nullable = false, updatable = false, length = 30)
    private String processor;

    @Column(name = "external_id", length = 120)
    private String externalId;

    @Enumerated(EnumType.STRING)
    @Column(name = "status", nullable = false, length = 20)
    private Status status;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    @Column(name = "confirmed_at")
    private Instant confirmedAt;

    protected TopUp() {
    }

    public TopUp(long userId, BigDecimal amount, String processor, Instant now) {
        this.id = UUID.randomUUID();
        this.userId = userId;
        this.amount = Money.of(checked(amount));
        this.processor = processor;
        this.status = Status.PENDING;
        this.createdAt = now;
    }

    /** A top-up amount: whole cents, {@value #MIN} to {@value #MAX}; 422 otherwise. */
    public static BigDecimal checked(BigDecimal amount) {
        if (amount == null || amount.stripTrailingZeros().scale() > 2 || amount.compareTo(new BigDecimal(MIN)) < 0
                || amount.compareTo(new BigDecimal(MAX)) > 0) {
            throw BusinessException.validation("amount: whole cents from " + MIN + " to " + MAX + " USD");
        }
        return amount;
    }

    public void sentTo(String external) {
        this.externalId = external;
    }

    /**
     * The processor confirmed the payment; false when it was confirmed before (a replayed confirmation). Money
     * received is credited even after a failure was reported.
     */
    public boolean confirm(Instant now) {
        if (status == Status.SUCCEEDED) {
            return false;
        }
        this.status = Status.SUCCEEDED;
        this.confirmedAt = now;
        return true;
    }

    /** The processor gave the payment up; false unless it was pending. */
    public boolean fail() {
        if (status != Status.PENDING) {
            return false;
        }
        this.status = Status.FAILED;
        return true;
    }

    public UUID id() {
        return id;
    }

    public long userId() {
        return userId;
    }

    public BigDecimal amount() {
        return Money.of(amount);
    }

    public String processor() {
        return processor;
    }

    public String externalId() {
        return externalId;
    }

    public Status status() {
        return status;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant confirmedAt() {
        return confirmedAt;
    }
}
