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

import dev.atrium.platform.banking.BankIdentifiers;
import dev.atrium.platform.error.BusinessException;

/**
 * Where a developer's payouts go: a bank account by IBAN (and optional BIC), or the payment processor (a Stripe
 * connected account).
 */
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

    /** A Stripe connected account's id, as Stripe issues them. */
    private static final Pattern CONNECTED_ACCOUNT = Pattern.compile("acct_[A-Za-z0-9]{8,40}");
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

    @Column(name = "connected_account", length = 64)
    private String connectedAccount;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected PayoutAccount() {
    }

    public PayoutAccount(long userId) {
        this.userId = userId;
    }

    /**
     * Replaces the details, each checked: 422 naming the field that is wrong. A bank transfer needs an IBAN of the
     * registry and, when given, a BIC of the same country; the processor needs the developer's Stripe connected
     * account ({@code acct_…}), which payouts are transferred to.
     */
    public void change(Method method, String holderName, String iban, String bic, String connectedAccount,
                       Instant now) {
        if (holderName == null || holderName.isBlank() || holderName.strip().length() > HOLDER_MAX
                || holderName.chars().anyMatch(Character::isISOControl)) {
            throw BusinessException.validation("holder_name: 1 to " + HOLDER_MAX + " characters");
        }
        String checkedIban = null;
        String checkedBic = null;
        String checkedAccount = null;
        if (method == Method.BANK_TRANSFER) {
            Iban account = Iban.parse(iban).orElseThrow(() -> BusinessException.validation("iban: not a valid IBAN "
                    + "(a country of the IBAN registry, its length and structure, the check digits)"));
            checkedIban = account.value();
            if (bic != null && !bic.isBlank()) {
                checkedBic = BankIdentifiers.bic(bic).orElseThrow(() -> BusinessException.validation(
                        "bic: not a valid BIC (ISO 9362: 8 or 11 letters and digits with a real country)"));
                if (!account.sameCountryAs(checkedBic)) {
                    throw BusinessException.validation("bic: the bank's country (" + BankIdentifiers.bicCountry(
                            checkedBic) + ") is not the IBAN's (" + account.country() + ")");
                }
            }
            if (connectedAccount != null && !connectedAccount.isBlank()) {
                throw BusinessException.validation("connected_account: only for processor");
            }
        } else {
            if ((iban != null && !iban.isBlank()) || (bic != null && !bic.isBlank())) {
                throw BusinessException.validation((iban != null && !iban.isBlank() ? "iban" : "bic")
                        + ": only for bank_transfer");
            }
            if (connectedAccount == null || !CONNECTED_ACCOUNT.matcher(connectedAccount.strip()).matches()) {
                throw BusinessException.validation("connected_account: the Stripe connected account payouts are "
                        + "transferred to, acct_ and 8 to 40 letters and digits");
            }
            checkedAccount = connectedAccount.strip();
        }
        this.method = method;
        this.holderName = holderName.strip();
        this.iban = checkedIban;
        this.bic = checkedBic;
        this.connectedAccount = checkedAccount;
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

    /** The Stripe connected account ({@code acct_…}) processor payouts go to; null for a bank transfer. */
    public String connectedAccount() {
        return connectedAccount;
    }

    public Instant updatedAt() {
        return updatedAt;
    }
}
