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
 * pain.001 file), paid through the processor (a Stripe Connect transfer: {@code pending} until Stripe's signed event
 * confirms it {@code paid}, or reports it {@code failed} and the money goes back to earnings), or carried to the next
 * month (below the minimum, or no payout account to pay to). The bank details and the connected account are a
 * snapshot of the payout account when the run paid; {@code reason} says what a pending or failed payout waits for.
 */
@Entity
@Table(name = "billing_payouts")
public class Payout {

    public enum Status {
        PENDING_FILE, FILED, PENDING, PAID, FAILED, CARRIED, NO_ACCOUNT;

        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The money left the developer's earnings for this payout and was not posted back. */
        public boolean paid() {
            return this == PENDING_FILE || this == FILED || this == PENDING || this == PAID;
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

    @Column(name = "connected_account", updatable = false, length = 64)
    private String connectedAccount;

    @Column(name = "transfer_id", length = 64)
    private String transferId;

    @Column(name = "status_reason", length = 300)
    private String reason;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    @Column(name = "updated_at")
    private Instant updatedAt;

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
            this.connectedAccount = to.connectedAccount();
        }
        this.createdAt = now;
        this.updatedAt = now;
    }

    /**
     * A payout the run took from the developer's earnings: to the month's bank file, or a processor transfer still to
     * be sent ({@code reason}: what it waits for).
     */
    public static Payout paid(long developerId, YearMonth month, BigDecimal amount, PayoutAccount to, String reason,
                              Instant now) {
        boolean bank = to.method() == PayoutAccount.Method.BANK_TRANSFER;
        var payout = new Payout(developerId, month, amount, bank ? Status.PENDING_FILE : Status.PENDING, to, now);
        payout.reason = bank ? null : reason;
        return payout;
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

    /** Whether this is a processor payout no transfer was sent for yet. */
    public boolean awaitsTransfer() {
        return status == Status.PENDING && transferId == null;
    }

    /** Stripe accepted the transfer: it waits for the signed event that confirms it. */
    public void transferred(String transferId, Instant now) {
        if (this.transferId == null) {
            this.transferId = transferId;
            if (status == Status.PENDING) {
                this.reason = "waiting for Stripe's confirmation";
            }
            this.updatedAt = now;
        }
    }

    /** Still pending, for {@code reason} (e.g. the processor could not be reached). */
    public void waiting(String reason, Instant now) {
        if (status == Status.PENDING) {
            this.reason = reason;
            this.updatedAt = now;
        }
    }

    /** The transfer is confirmed; false when it was not pending. */
    public boolean confirm(Instant now) {
        if (status != Status.PENDING) {
            return false;
        }
        status = Status.PAID;
        reason = null;
        updatedAt = now;
        return true;
    }

    /** The transfer failed or was reversed, before or after it was confirmed; false when it had failed already. */
    public boolean fail(String reason, Instant now) {
        if (status != Status.PENDING && status != Status.PAID) {
            return false;
        }
        status = Status.FAILED;
        this.reason = reason;
        updatedAt = now;
        return true;
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

    public String connectedAccount() {
        return connectedAccount;
    }

    public String transferId() {
        return transferId;
    }

    public String reason() {
        return reason;
    }

    public Instant createdAt() {
        return createdAt;
    }
}
