package dev.atrium.billing.entity;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.YearMonth;
import java.util.Locale;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * One developer's outcome of one month's payout run: paid by bank transfer (waiting for, then in, the month's
 * pain.001 file), paid through the processor, or carried to the next month (below the minimum, or no payout account
 * to pay to). The bank details are a snapshot of the payout account when the run paid.
 */
@Entity
@Table(name = "billing_payouts")
public class Payout {

    public enum Status {
        PENDING_FILE, FILED, SENT, CARRIED, NO_ACCOUNT;

        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        public boolean paid() {
            return this == PENDING_FILE || this == FILED || this == SENT;
        }
    }

    @Id
    private UUID id;

    @Column(name = "developer_id", nullable = false, updatable = false)
    private long developerId;

    @Column(name = "pay_month", nullable = false, updatable = false, length = 7)
    private String month;

    @Column(name = "amount", nullable = false, updatable = false, precision = 19, scale = 6)
    private BigDecimal amount;

    @Enumerated(EnumType.STRING)
    @Column(name = "status", nullable = false, length = 20)
    private Status status;

    @Column(name = "method", updatable = false, length = 20)
    private String method;

    @Column(name = "holder_name", updatable = false, length = 140)
    private String holderName;

    @Column(name = "iban", updatable = false, length = 34)
    private String iban;

    @Column(name = "bic", updatable = false, length = 11)
    private String bic;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    protected Payout() {
    }

    private Payout(long developerId, YearMonth month, BigDecimal amount, Status status, PayoutAccount to,
                   Instant now) {
        this.id = UUID.randomUUID();
        this.developerId = developerId;
        this.month = month.toString();
        this.amount = Money.of(amount);
        this.status = status;
        if (to != null) {
            this.method = to.method().value();
            this.holderName = to.holderName();
            this.iban = to.iban();
            this.bic = to.bic();
        }
        this.createdAt = now;
    }

    public static Payout paid(long developerId, YearMonth month, BigDecimal amount, PayoutAccount to, Instant now) {
        return new Payout(developerId, month, amount, to.method() == PayoutAccount.Method.BANK_TRANSFER
                ? Status.PENDING_FILE : Status.SENT, to, now);
    }

    public static Payout carried(long developerId, YearMonth month, BigDecimal payable, boolean noAccount,
                                 Instant now) {
        return new Payout(developerId, month, payable, noAccount ? Status.NO_ACCOUNT : Status.CARRIED, null, now);
    }

    /** The month's pain.001 file holds this transfer. */
    public void filed() {
        if (status == Status.PENDING_FILE) {
            status = Status.FILED;
        }
    }

    public UUID id() {
        return id;
    }

    public long developerId() {
        return developerId;
    }

    public YearMonth month() {
        return YearMonth.parse(month);
    }

    public BigDecimal amount() {
        return Money.of(amount);
    }

    public Status status() {
        return status;
    }

    public String method() {
        return method;
    }

    public String holderName() {
        return holderName;
    }

    public String iban() {
        return iban;
    }

    public String bic() {
        return bic;
    }

    public Instant createdAt() {
        return createdAt;
    }
}
