package dev.atrium.billing.control;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.billing.entity.Money;
import dev.atrium.billing.entity.TopUp;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.JsonInput;
import dev.atrium.platform.webhook.WebhookSignature;

/**
 * Stripe, as its API documents it. A top-up opens a PaymentIntent ({@code POST /v1/payment_intents}, form-encoded,
 * amount in cents, {@code metadata[top_up_id]}, the top-up id as the {@code Idempotency-Key}); the payer completes it
 * with its {@code client_secret} on Stripe's side. Stripe's webhook events arrive signed in {@code Stripe-Signature}
 * ({@code t=…,v1=…}, HMAC-SHA256 of {@code "<t>." + body} with the endpoint's {@code whsec_} secret, 300 s window):
 * {@code payment_intent.succeeded} confirms the top-up named in its metadata when the intent, the amount received
 * and the currency match it; {@code payment_intent.canceled} fails it; {@code payment_intent.payment_failed} leaves it
 * pending, since the payer may try another card; every other event is acknowledged and ignored. Configuration:
 * {@code atrium.billing.stripe.secret-key}, {@code .webhook-secret}, {@code .api-base} (https://api.stripe.com).
 */
@ApplicationScoped
public class StripeProcessor implements PaymentProcessor {

    public static final String NAME = "stripe";
    public static final String HEADER = "Stripe-Signature";
    /** The API version the requests and the events are read as. */
    public static final String API_VERSION = "2024-06-20";
    private static final Logger LOG = Logger.getLogger(StripeProcessor.class.getName());

    @Inject
    @ConfigProperty(name = "atrium.billing.stripe.api-base", defaultValue = "https://api.stripe.com")
    String apiBase;

    @Inject
    @ConfigProperty(name = "atrium.billing.stripe.secret-key")
    Optional<String> secretKey;

    @Inject
    @ConfigProperty(name = "atrium.billing.stripe.webhook-secret")
    Optional<String> webhookSecret;

    @Inject
    @ConfigProperty(name = "atrium.billing.stripe.timeout-seconds", defaultValue = "15")
    int timeoutSeconds;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String signatureHeader() {
        return HEADER;
    }

    @Override
    public Payment open(TopUp topUp) {
        String key = secretKey.filter(s -> !s.isBlank()).orElseThrow(() -> new BusinessException(Problem.UNAVAILABLE,
                "No payment processor", "Set atrium.billing.stripe.secret-key"));
        var form = new LinkedHashMap<String, String>();
        form.put("amount", Long.toString(cents(topUp.amount())));
        form.put("currency", Money.CURRENCY.toLowerCase(Locale.ROOT));
        form.put("automatic_payment_methods[enabled]", "true");
        form.put("description", "Atrium balance top-up");
        form.put("metadata[top_up_id]", topUp.id().toString());
        form.put("metadata[user_id]", Long.toString(topUp.userId()));
        var request = HttpRequest.newBuilder(URI.create(apiBase.replaceAll("/+$", "") + "/v1/payment_intents"))
                .timeout(Duration.ofSeconds(timeoutSeconds))
                .header("Authorization", "Bearer " + key)
                .header("Idempotency-Key", "atrium-top-up-" + topUp.id())
                .header("Stripe-Version", API_VERSION)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(encode(form))).build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            LOG.warning(() -> "Stripe could not be reached: " + e.getClass().getSimpleName());
            throw new BusinessException(Problem.UNAVAILABLE, "The payment processor cannot be reached");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BusinessException(Problem.UNAVAILABLE, "The payment processor cannot be reached");
        }
        JsonObject body = object(response.body());
        if (response.statusCode() >= 500 || response.statusCode() == 429) {
            LOG.warning(() -> "Stripe answered " + response.statusCode() + " to a payment intent");
            throw new BusinessException(Problem.UNAVAILABLE, "The payment processor is unavailable");
        }
        if (response.statusCode() != 200) {
            String type = body.get("error") instanceof JsonObject error ? text(error, "type") : null;
            LOG.warning(() -> "Stripe refused a payment intent: " + response.statusCode() + " " + type);
            throw new BusinessException(Problem.UPSTREAM, "The payment processor refused the top-up",
                    type == null ? "status " + response.statusCode() : type);
        }
        String id = text(body, "id");
        String clientSecret = text(body, "client_secret");
        if (id == null || !id.startsWith("pi_") || clientSecret == null) {
            throw new BusinessException(Problem.UPSTREAM, "The payment processor answered without a payment intent");
        }
        return new Payment(id, clientSecret, "succeeded".equals(text(body, "status")));
    }

    @Override
    public Optional<Event> read(byte[] body, String signature, Instant now) {
        byte[] key = webhookSecret.filter(s -> !s.isBlank()).map(s -> s.getBytes(StandardCharsets.UTF_8))
                .orElseThrow(() -> new BusinessException(Problem.UNAVAILABLE, "Stripe webhooks are not configured",
                        "Set atrium.billing.stripe.webhook-secret"));
        WebhookSignature.verify(key, HEADER, signature, body, now, WebhookSignature.DEFAULT_TOLERANCE);
        if (!(JsonInput.read(new String(body, StandardCharsets.UTF_8)) instanceof JsonObject event)
                || !"event".equals(text(event, "object")) || text(event, "type") == null) {
            throw BusinessException.badRequest("A Stripe event is a JSON object with object \"event\" and a type");
        }
        Outcome outcome = switch (text(event, "type")) {
            case "payment_intent.succeeded" -> Outcome.SUCCEEDED;
            case "payment_intent.canceled" -> Outcome.FAILED;
            default -> null;
        };
        if (outcome == null) {
            return Optional.empty();
        }
        if (!(event.get("data") instanceof JsonObject data) || !(data.get("object") instanceof JsonObject intent)
                || !"payment_intent".equals(text(intent, "object")) || text(intent, "id") == null) {
            throw BusinessException.badRequest("data.object: a payment intent is required");
        }
        String topUp = intent.get("metadata") instanceof JsonObject metadata ? text(metadata, "top_up_id") : null;
        if (topUp == null) {
            // a payment of something else on the same Stripe account
            return Optional.empty();
        }
        UUID id;
        try {
            id = UUID.fromString(topUp);
        } catch (IllegalArgumentException e) {
            throw BusinessException.badRequest("data.object.metadata.top_up_id: not a top-up id");
        }
        BigDecimal amount = null;
        if (outcome == Outcome.SUCCEEDED) {
            if (!(intent.get("amount_received") instanceof JsonNumber received) || !received.isIntegral()) {
                throw BusinessException.badRequest("data.object.amount_received: whole cents are required");
            }
            amount = received.bigDecimalValue().movePointLeft(2);
        }
        String currency = text(intent, "currency");
        return Optional.of(new Event(outcome, id, text(intent, "id"), amount,
                currency == null ? null : currency.toUpperCase(Locale.ROOT)));
    }

    static long cents(BigDecimal amount) {
        return amount.movePointRight(2).setScale(0, java.math.RoundingMode.UNNECESSARY).longValueExact();
    }

    static String encode(Map<String, String> form) {
        return form.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
    }

    private static JsonObject object(String text) {
        try {
            return text != null && JsonInput.read(text) instanceof JsonObject o ? o : JsonValue.EMPTY_JSON_OBJECT;
        } catch (RuntimeException e) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
    }

    private static String text(JsonObject object, String name) {
        return object.get(name) instanceof JsonString s ? s.getString() : null;
    }
}
