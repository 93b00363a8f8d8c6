package dev.atrium.billing.control;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.billing.entity.TopUp;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.JsonInput;
import dev.atrium.platform.webhook.WebhookSignature;

/**
 * Any processor that posts Atrium's own callback: {@code {"type": "top_up.succeeded" | "top_up.failed", "data":
 * {"top_up_id": …}}} signed in {@value WebhookSignature#HEADER} with {@code atrium.billing.webhook-secret}.
 */
@ApplicationScoped
public class SignedWebhookProcessor implements PaymentProcessor {

    public static final String SUCCEEDED = "top_up.succeeded";
    public static final String FAILED = "top_up.failed";

    @Inject
    @ConfigProperties
    BillingConfig config;

    @Override
    public String name() {
        return TopUps.WEBHOOK;
    }

    @Override
    public String signatureHeader() {
        return WebhookSignature.HEADER;
    }

    @Override
    public Payment open(TopUp topUp) {
        return new Payment("pending-" + topUp.id(), null, false);
    }

    @Override
    public Optional<Event> read(byte[] body, String signature, Instant now) {
        byte[] key = config.webhookSecret.filter(s -> !s.isBlank()).map(s -> s.getBytes(StandardCharsets.UTF_8))
                .orElseThrow(() -> new BusinessException(Problem.UNAVAILABLE, "Webhooks are not configured",
                        "Set atrium.billing.webhook-secret"));
        WebhookSignature.verify(key, WebhookSignature.HEADER, signature, body, now,
                WebhookSignature.DEFAULT_TOLERANCE);
        if (!(JsonInput.read(new String(body, StandardCharsets.UTF_8)) instanceof JsonObject event)
                || !(event.get("type") instanceof JsonString type)) {
            throw BusinessException.badRequest("A webhook event is a JSON object with a type");
        }
        Outcome outcome = switch (type.getString()) {
            case SUCCEEDED -> Outcome.SUCCEEDED;
            case FAILED -> Outcome.FAILED;
            default -> null;
        };
        if (outcome == null) {
            return Optional.empty();
        }
        try {
            var id = UUID.fromString(event.getJsonObject("data").getString("top_up_id"));
            return Optional.of(new Event(outcome, id, null, null, null));
        } catch (RuntimeException e) {
            throw BusinessException.badRequest("data.top_up_id: a top-up id is required");
        }
    }
}
