package dev.atrium.billing.control;

import java.math.BigDecimal;
import java.util.Optional;

import org.eclipse.microprofile.config.inject.ConfigProperties;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The billing context's configuration: every key under {@code atrium.billing}, with its default. The database URL
 * {@link PaymentsSetting} looks at ({@code atrium.db.url}) is the platform's.
 */
@ConfigProperties(prefix = "atrium")
public class BillingConfig {

    /** Where new top-ups go: {@code embedded}, {@code webhook} or {@code stripe} (see {@link PaymentsSetting}). */
    @ConfigProperty(name = "billing.processor")
    public Optional<String> processor;

    /** USD a new user's balance starts with, posted from promotions. */
    @ConfigProperty(name = "billing.signup-credit", defaultValue = "0")
    public BigDecimal signupCredit;

    /** The HMAC secret of the {@code webhook} processor's callbacks; unset, they answer 503. */
    @ConfigProperty(name = "billing.webhook-secret")
    public Optional<String> webhookSecret;

    /** Where Stripe's API is. */
    @ConfigProperty(name = "billing.stripe.api-base", defaultValue = "https://api.stripe.com")
    public String stripeApiBase;

    /** Stripe's API key ({@code sk_…}); never logged. */
    @ConfigProperty(name = "billing.stripe.secret-key")
    public Optional<String> stripeSecretKey;

    /** The Stripe webhook endpoint's signing secret ({@code whsec_…}); never logged. */
    @ConfigProperty(name = "billing.stripe.webhook-secret")
    public Optional<String> stripeWebhookSecret;

    /** How long a call to Stripe may take. */
    @ConfigProperty(name = "billing.stripe.timeout-seconds", defaultValue = "15")
    public int stripeTimeoutSeconds;

    /**
     * The billing queue's consumers of an instance: the sessions of its message-driven bean, whose {@code maxSession}
     * reads this key with this default when the application is deployed (MaxSessionTest keeps the two equal).
     */
    @ConfigProperty(name = "billing.queue.consumers", defaultValue = "2")
    public int queueConsumers;

    /** Usage records one billing queue consumer bills in one transaction, each account moved once for all. */
    @ConfigProperty(name = "billing.queue.batch-size", defaultValue = "500")
    public int queueBatchSize;

    /** A hold no usage record claimed is released after this long. */
    @ConfigProperty(name = "billing.holds.stale-after-seconds", defaultValue = "900")
    public long holdsStaleAfterSeconds;

    /** The least a developer is paid out; less is carried to the next month. */
    @ConfigProperty(name = "billing.payout.minimum", defaultValue = "50.00")
    public BigDecimal payoutMinimum;

    /** The hour (UTC) on the 1st of each month when the previous month is settled. */
    @ConfigProperty(name = "billing.payout.hour", defaultValue = "3")
    public int payoutHour;

    /** The platform's account that pays, written into the pain.001 file. */
    @ConfigProperty(name = "billing.payout.debtor-name", defaultValue = "Atrium")
    public String payoutDebtorName;

    @ConfigProperty(name = "billing.payout.debtor-iban")
    public Optional<String> payoutDebtorIban;

    @ConfigProperty(name = "billing.payout.debtor-bic")
    public Optional<String> payoutDebtorBic;
}
