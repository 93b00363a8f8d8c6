package dev.atrium.billing.control;

import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.platform.PlatformConfig;

/**
 * Which payment processor takes top-ups ({@code atrium.billing.processor}), decided once at start. {@code embedded}
 * credits every top-up for free, so it is taken only when chosen, or when the platform runs on its embedded defaults
 * (no {@code atrium.db.url}, or an H2 one); with an external database and no processor the deployment is refused,
 * as it is for an unknown name. The start log warns while {@code embedded} is active; {@code /health} and
 * {@code /admin/operations} name the processor.
 */
@Startup
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class PaymentsSetting {

    public static final String ENV = "ATRIUM_BILLING_PROCESSOR";
    public static final List<String> CHOICES = List.of(TopUps.EMBEDDED, TopUps.WEBHOOK, StripeProcessor.NAME);
    private static final Logger LOG = Logger.getLogger(PaymentsSetting.class.getName());

    @Inject
    @ConfigProperties
    BillingConfig config;

    @Inject
    @ConfigProperties
    PlatformConfig platformConfig;

    private volatile String processor;

    @PostConstruct
    void decideAtStart() {
        try {
            processor = decide(config.processor, platformConfig.dbUrl);
        } catch (IllegalStateException e) {
            LOG.severe(e.getMessage());
            throw e;
        }
        if (TopUps.EMBEDDED.equals(processor)) {
            LOG.warning("Payments: No payment processor is configured (" + ENV + " is not set or embedded): every top-up is "
                    + "credited at once and for free, for development only; /health shows \"payments\": \""
                    + describe(processor) + "\"");
        } else {
            LOG.info(() -> "Payments: " + describe(processor));
        }
    }

    /**
     * The processor for this configuration: the one named, else {@code embedded} on the embedded defaults; throws
     * {@link IllegalStateException} naming {@value #ENV} for an unknown name or an external database without one.
     */
    public static String decide(Optional<String> configured, Optional<String> databaseUrl) {
        var chosen = configured.map(String::strip).filter(s -> !s.isEmpty());
        if (chosen.isPresent()) {
            if (!CHOICES.contains(chosen.get())) {
                throw new IllegalStateException("Refusing to start: " + ENV + " is '" + chosen.get()
                        + "'; choose " + String.join(", ", CHOICES));
            }
            return chosen.get();
        }
        boolean external = databaseUrl.map(String::strip).filter(u -> !u.isEmpty() && !u.startsWith("jdbc:h2:"))
                .isPresent();
        if (external) {
            throw new IllegalStateException("Refusing to start: " + ENV + " is not set and the database is external "
                    + "(ATRIUM_DB_URL); choose stripe or webhook to take real payments, or embedded to credit every "
                    + "top-up for free (development only)");
        }
        return TopUps.EMBEDDED;
    }

    /** The processor new top-ups go to. */
    public String processor() {
        return processor;
    }

    /** The processor as {@code /health} names it. */
    public String describe() {
        return describe(processor);
    }

    static String describe(String processor) {
        return TopUps.EMBEDDED.equals(processor) ? "embedded (development: top-ups are free)" : processor;
    }
}
