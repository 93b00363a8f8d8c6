package dev.atrium.billing.control;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.billing.entity.AccountKind;
import dev.atrium.billing.entity.BillingAccount;
import dev.atrium.billing.entity.EntryKind;
import dev.atrium.billing.entity.TopUp;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.JsonInput;
import dev.atrium.platform.webhook.WebhookSignature;

/**
 * Top-ups through the configured payment processor ({@code atrium.billing.processor}): {@code embedded}, for
 * development only, confirms every top-up at once, so no money is ever received; {@code webhook} leaves the top-up
 * pending until the processor's callback, signed with HMAC-SHA256 over a timestamp and the body
 * ({@link WebhookSignature}, 300 s window, {@code atrium.billing.webhook-secret}), confirms it. A top-up is credited
 * exactly once however often its confirmation arrives (entry {@code top-up:<id>}).
 */
@Stateless
public class TopUps {

    public static final String EMBEDDED = "embedded";
    public static final String WEBHOOK = "webhook";
    public static final String SUCCEEDED_EVENT = "top_up.succeeded";
    private static final Logger LOG = Logger.getLogger(TopUps.class.getName());

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Ledger ledger;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperty(name = "atrium.billing.processor", defaultValue = EMBEDDED)
    String processor;

    @Inject
    @ConfigProperty(name = "atrium.billing.webhook-secret")
    Optional<String> webhookSecret;

    public TopUp create(long userId, BigDecimal amount) {
        if (!processor.equals(EMBEDDED) && !processor.equals(WEBHOOK)) {
            throw new BusinessException(Problem.UNAVAILABLE, "No payment processor",
                    "atrium.billing.processor is " + processor + "; expected embedded or webhook");
        }
        var topUp = new TopUp(userId, amount, processor, clock.instant());
        em.persist(topUp);
        if (processor.equals(EMBEDDED)) {
            topUp.sentTo("embedded-" + topUp.id());
            credit(topUp);
        } else {
            topUp.sentTo("pending-" + topUp.id());
        }
        return topUp;
    }

    public TopUp mine(long userId, UUID id) {
        TopUp topUp = em.find(TopUp.class, id);
        if (topUp == null || topUp.userId() != userId) {
            throw BusinessException.notFound("Top-up");
        }
        return topUp;
    }

    /**
     * A processor's signed callback: 401 for a missing or wrong signature, 400 outside the replay window or for an
     * unreadable body; {@value #SUCCEEDED_EVENT} with {@code data.top_up_id} credits that top-up once; other event
     * types are acknowledged and ignored. Answers whether this call credited the balance.
     */
    public boolean webhook(byte[] body, String signature) {
        byte[] secret = webhookSecret.filter(s -> !s.isBlank()).map(s -> s.getBytes(StandardCharsets.UTF_8))
                .orElseThrow(() -> new BusinessException(Problem.UNAVAILABLE, "Webhooks are not configured",
                        "Set atrium.billing.webhook-secret"));
        WebhookSignature.verify(secret, signature, body, clock.instant(), WebhookSignature.DEFAULT_TOLERANCE);
        if (!(JsonInput.read(new String(body, StandardCharsets.UTF_8)) instanceof JsonObject event)
                || !(event.get("type") instanceof JsonString type)) {
            throw BusinessException.badRequest("A webhook event is a JSON object with a type");
        }
        if (!type.getString().equals(SUCCEEDED_EVENT)) {
            return false;
        }
        UUID id;
        try {
            id = UUID.fromString(event.getJsonObject("data").getString("top_up_id"));
        } catch (RuntimeException e) {
            throw BusinessException.badRequest("data.top_up_id: a top-up id is required");
        }
        TopUp topUp = em.find(TopUp.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (topUp == null) {
            throw BusinessException.notFound("Top-up");
        }
        return credit(topUp);
    }

    private boolean credit(TopUp topUp) {
        if (!topUp.confirm(clock.instant())) {
            return false;
        }
        ledger.post(EntryKind.TOP_UP, "top-up:" + topUp.id(), topUp.userId(), "Top-up via " + topUp.processor(),
                List.of(new Ledger.Line(AccountKind.EXTERNAL_PAYMENTS, BillingAccount.PLATFORM,
                                topUp.amount().negate()),
                        new Ledger.Line(AccountKind.USER_BALANCE, topUp.userId(), topUp.amount())));
        LOG.info(() -> "Top-up " + topUp.id() + " of user " + topUp.userId() + " credited");
        return true;
    }
}
