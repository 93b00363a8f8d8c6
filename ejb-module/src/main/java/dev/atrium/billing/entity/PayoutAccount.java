package dev.atrium.billing.entity;

import java.time.Instant;
import java.util.Locale;
import java.util.regex.Pattern;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import dev.atrium.platform.error.BusinessException;

/** Where a developer's payouts go: a bank account by IBAN (and optional BIC), or the payment processor. */
@Entity
@Table(name = "billing_payout_accounts")
public class PayoutAccount {

    public enum Method {
        BANK_TRANSFER, PROCESSOR;

        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Method of(String text) {
            for (Method m : values()) {
                if (m.value().equals(text)) {
                    return m;
                }
            }
            throw BusinessException.validation("method: bank_transfer or processor");
        }
    }

    private static final Pattern BIC = Pattern.compile("[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?");
    private static final int HOLDER_MAX = 140;

    @Id
    @Column(name = "user_id")
    private long userId;

    @Enumerated(EnumType.STRING)
    @Column(name = "method", nullable = false, length = 20)
    private Method method;

    @Column(name = "holder_name", nullable = false, length = HOLDER_MAX)
    private String holderName;

    @Column(name = "iban", length = 34)
    private String iban;

    @Column(name = "bic", length = 11)
    private String bic;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected PayoutAccount() {
    }

    public PayoutAccount(long userId) {
        this.userId = userId;
    }

    /** Replaces the details, each checked: 422 naming the field that is wrong. */
    public void change(Method method, String holderName, String iban, String bic, Instant now) {
        if (holderName == null || holderName.isBlank() || holderName.strip().length() > HOLDER_MAX
                || holderName.chars().anyMatch(Character::isISOControl)) {
            throw BusinessException.validation("holder_name: 1 to " + HOLDER_MAX + " characters");
        }
        String checkedIban = null;
        String checkedBic = null;
        if (method == Method.BANK_TRANSFER) {
            checkedIban = Iban.parse(iban).map(Iban::value)
                    .orElseThrow(() -> BusinessException.validation("iban: not a valid IBAN (country, length or "
                            + "check digits)"));
            if (bic != null && !bic.isBlank()) {
                checkedBic = bic.strip().toUpperCase(Locale.ROOT);
                if (!BIC.matcher(checkedBic).matches()) {
                    throw BusinessException.validation("bic: 8 or 11 letters and digits (ISO 9362)");
                }
            }
        } else if (iban != null && !iban.isBlank()) {
            throw BusinessException.validation("iban: only for bank_transfer");
        }
        this.method = method;
        this.holderName = holderName.strip();
        this.iban = checkedIban;
        this.bic = checkedBic;
        this.updatedAt = now;
    }

    public long userId() {
        return userId;
    }

    public Method method() {
        return method;
    }

    public String holderName() {
        return holderName;
    }

    /** The IBAN, for the payout file only; responses show {@link #maskedIban()}. */
    public String iban() {
        return iban;
    }

    public String maskedIban() {
        return iban == null ? null : new Iban(iban).masked();
    }

    public String bic() {
        return bic;
    }

    public Instant updatedAt() {
        return updatedAt;
    }
}
