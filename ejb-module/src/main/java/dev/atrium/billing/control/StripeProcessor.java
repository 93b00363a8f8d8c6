package dev.atrium.billing.control;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
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

import org.eclipse.microprofile.config.inject.ConfigProperties;

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
 * pending, since the payer may try another card; every other event is acknowledged and ignored. Processor payouts are
 * Stripe Connect transfers ({@link #transfer}), confirmed by {@code transfer.*} events ({@link #transferEvent}) on the
 * same endpoint. Configuration:
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
    @ConfigProperties
    BillingConfig config;

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
        String key = config.stripeSecretKey.filter(s -> !s.isBlank()).orElseThrow(() -> new BusinessException(
                Problem.UNAVAILABLE, "No payment processor", "Set atrium.billing.stripe.secret-key"));
        var form = new LinkedHashMap<String, String>();
        form.put("amount", Long.toString(cents(topUp.amount())));
        form.put("currency", Money.CURRENCY.toLowerCase(Locale.ROOT));
        form.put("automatic_payment_methods[enabled]", "true");
        form.put("description", "Atrium balance top-up");
        form.put("metadata[top_up_id]", topUp.id().toString());
        form.put("metadata[user_id]", Long.toString(topUp.userId()));
        var answer = post("/v1/payment_intents", form, "atrium-top-up-" + topUp.id(), key, "a payment intent",
                Problem.PAYMENT_TIMED_OUT);
        JsonObject body = answer.body();
        if (answer.status() != 200) {
            String type = body.get("error") instanceof JsonObject error ? text(error, "type") : null;
            LOG.warning(() -> "Stripe refused a payment intent: " + answer.status() + " " + type);
            throw new BusinessException(Problem.UPSTREAM, "The payment processor refused the top-up",
                    type == null ? "status " + answer.status() : type);
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
        return topUpEvent(verified(body, signature, now));
    }

    /**
     * A Stripe event whose signature was checked (401 for a missing or wrong one, 400 outside the 300 s window or for
     * a body that is no event, 503 when the webhook secret is not configured).
     */
    public JsonObject verified(byte[] body, String signature, Instant now) {
        byte[] key = config.stripeWebhookSecret.filter(s -> !s.isBlank()).map(s -> s.getBytes(StandardCharsets.UTF_8))
                .orElseThrow(() -> new BusinessException(Problem.UNAVAILABLE, "Stripe webhooks are not configured",
                        "Set atrium.billing.stripe.webhook-secret"));
        WebhookSignature.verify(key, HEADER, signature, body, now, WebhookSignature.DEFAULT_TOLERANCE);
        if (!(JsonInput.read(new String(body, StandardCharsets.UTF_8)) instanceof JsonObject event)
                || !"event".equals(text(event, "object")) || text(event, "type") == null) {
            throw BusinessException.badRequest("A Stripe event is a JSON object with object \"event\" and a type");
        }
        return event;
    }

    /** The event's type, e.g. {@code transfer.created}. */
    public static String type(JsonObject event) {
        return text(event, "type");
    }

    /** A verified event about a top-up's payment intent; empty for any other event. */
    Optional<Event> topUpEvent(JsonObject event) {
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
        // none: a payment of something else on the same Stripe account
        UUID id = metadataId(intent, "top_up_id", "top-up");
        if (id == null) {
            return Optional.empty();
        }
        BigDecimal amount = null;
        if (outcome == Outcome.SUCCEEDED) {
            if (!(intent.get("amount_received") instanceof JsonNumber received) || !received.isIntegral()) {
                throw BusinessException.badRequest("data.object.amount_received: whole cents are required");
            }
            amount = received.bigDecimalValue().movePointLeft(2);
        }
        return Optional.of(new Event(outcome, id, text(intent, "id"), amount, currency(intent)));
    }

    /** Stripe's answer to a transfer: its id ({@code tr_…}). */
    public record Transfer(String id) {
    }

    /**
     * A Stripe event about a payout's transfer. {@code outcome} SUCCEEDED for {@code transfer.created} and
     * {@code transfer.paid}, FAILED for {@code transfer.failed} and a full {@code transfer.reversed}.
     */
    public record TransferEvent(Outcome outcome, String type, UUID payoutId, String transferId, BigDecimal amount,
                                String currency, String destination) {
    }

    /**
     * Transfers a payout to the developer's connected account: {@code POST /v1/transfers} (form-encoded, amount in
     * cents, usd, {@code destination}, {@code metadata[payout_id]}), the payout id in the {@code Idempotency-Key}
     * ({@code atrium-payout-<id>}), so sending it again never moves the money twice. 503 when Stripe cannot be reached
     * or answers 5xx, 429, 401, 403 or 409 (nothing moved, try again); 502 with Stripe's error code when it refuses
     * the transfer itself (400, 402, 404: nothing moved, and it will not).
     */
    public Transfer transfer(UUID payoutId, BigDecimal amount, String destination, String group) {
        String key = config.stripeSecretKey.filter(s -> !s.isBlank()).orElseThrow(() -> new BusinessException(
                Problem.UNAVAILABLE, "No payment processor", "Set atrium.billing.stripe.secret-key"));
        var form = new LinkedHashMap<String, String>();
        long cents = cents(amount);
        form.put("amount", Long.toString(cents));
        form.put("currency", Money.CURRENCY.toLowerCase(Locale.ROOT));
        form.put("destination", destination);
        form.put("transfer_group", group);
        form.put("description", "Atrium payout " + group);
        form.put("metadata[payout_id]", payoutId.toString());
        // a transfer that timed out is sent again by the month's next run, under the same idempotency key
        var answer = post("/v1/transfers", form, "atrium-payout-" + payoutId, key, "a transfer", Problem.UNAVAILABLE);
        JsonObject body = answer.body();
        int status = answer.status();
        if (status == 401 || status == 403 || status == 409) {
            // our key, or a request with this key still running at Stripe: the transfer may be asked again
            LOG.warning(() -> "Stripe answered " + status + " to a transfer");
            throw new BusinessException(Problem.UNAVAILABLE, "The payment processor is unavailable");
        }
        if (status != 200) {
            String code = body.get("error") instanceof JsonObject error
                    ? Optional.ofNullable(text(error, "code")).orElse(text(error, "type")) : null;
            LOG.warning(() -> "Stripe refused the transfer of payout " + payoutId + ": " + status + " " + code);
            throw new BusinessException(Problem.UPSTREAM, "The payment processor refused the transfer",
                    code == null ? "status " + status : code);
        }
        String id = text(body, "id");
        if (id == null || !id.startsWith("tr_") || !"transfer".equals(text(body, "object"))
                || !(body.get("amount") instanceof JsonNumber sent) || !sent.isIntegral()
                || sent.longValue() != cents || !destination.equals(text(body, "destination"))) {
            throw new BusinessException(Problem.UNAVAILABLE, "The payment processor answered without the transfer");
        }
        return new Transfer(id);
    }

    /**
     * A verified event about a payout's transfer; empty for other events, for transfers of something else (no
     * {@code metadata.payout_id}) and for a partial reversal, which is logged for an operator.
     */
    public Optional<TransferEvent> transferEvent(JsonObject event) {
        String type = text(event, "type");
        Outcome outcome = switch (type) {
            case "transfer.created", "transfer.paid" -> Outcome.SUCCEEDED;
            case "transfer.failed", "transfer.reversed" -> Outcome.FAILED;
            default -> null;
        };
        if (outcome == null) {
            return Optional.empty();
        }
        if (!(event.get("data") instanceof JsonObject data) || !(data.get("object") instanceof JsonObject transfer)
                || !"transfer".equals(text(transfer, "object")) || text(transfer, "id") == null) {
            throw BusinessException.badRequest("data.object: a transfer is required");
        }
        UUID id = metadataId(transfer, "payout_id", "payout");
        if (id == null) {
            return Optional.empty();
        }
        if (!(transfer.get("amount") instanceof JsonNumber amount) || !amount.isIntegral()) {
            throw BusinessException.badRequest("data.object.amount: whole cents are required");
        }
        if ("transfer.reversed".equals(type) && !JsonValue.TRUE.equals(transfer.get("reversed"))) {
            LOG.warning(() -> "Stripe reversed part of transfer " + text(transfer, "id") + " of payout " + id
                    + ": left to an operator");
            return Optional.empty();
        }
        return Optional.of(new TransferEvent(outcome, type, id, text(transfer, "id"),
                amount.bigDecimalValue().movePointLeft(2), currency(transfer), text(transfer, "destination")));
    }

    /** Stripe's status and object for a request it answered. */
    private record Answer(int status, JsonObject body) {
    }

    /**
     * A form POST to Stripe's API: 503 when it cannot be reached or answers 5xx or 429, {@code timedOut} when it did
     * not answer within {@code atrium.billing.stripe.timeout-seconds}, else its answer.
     */
    private Answer post(String path, Map<String, String> form, String idempotencyKey, String key, String what,
                        Problem timedOut) {
        var request = HttpRequest.newBuilder(URI.create(config.stripeApiBase.replaceAll("/+$", "") + path))
                .timeout(Duration.ofSeconds(config.stripeTimeoutSeconds))
                .header("Authorization", "Bearer " + key)
                .header("Idempotency-Key", idempotencyKey)
                .header("Stripe-Version", API_VERSION)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(encode(form))).build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (HttpConnectTimeoutException e) {
            // no connection, so no request: Stripe cannot be reached, as for any other connection failure
            LOG.warning(() -> "Stripe could not be reached: " + e.getClass().getSimpleName());
            throw new BusinessException(Problem.UNAVAILABLE, "The payment processor cannot be reached");
        } catch (HttpTimeoutException e) {
            LOG.warning(() -> "Stripe did not answer " + what + " within " + config.stripeTimeoutSeconds + " s");
            throw new BusinessException(timedOut, timedOut == Problem.PAYMENT_TIMED_OUT ? "Payment timed out"
                    : "The payment processor is unavailable",
                    "The payment processor did not answer within " + config.stripeTimeoutSeconds
                            + " s; nothing was charged");
        } catch (IOException e) {
            LOG.warning(() -> "Stripe could not be reached: " + e.getClass().getSimpleName());
            throw new BusinessException(Problem.UNAVAILABLE, "The payment processor cannot be reached");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BusinessException(Problem.UNAVAILABLE, "The payment processor cannot be reached");
        }
        if (response.statusCode() >= 500 || response.statusCode() == 429) {
            LOG.warning(() -> "Stripe answered " + response.statusCode() + " to " + what);
            throw new BusinessException(Problem.UNAVAILABLE, "The payment processor is unavailable");
        }
        return new Answer(response.statusCode(), object(response.body()));
    }

    static long cents(BigDecimal amount) {
        return amount.movePointRight(2).setScale(0, RoundingMode.UNNECESSARY).longValueExact();
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

    /** The id in the object's {@code metadata.<key>}; null when it has none, 400 when it is no id. */
    private static UUID metadataId(JsonObject object, String key, String what) {
        String id = object.get("metadata") instanceof JsonObject metadata ? text(metadata, key) : null;
        try {
            return id == null ? null : UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw BusinessException.badRequest("data.object.metadata." + key + ": not a " + what + " id");
        }
    }

    private static String currency(JsonObject object) {
        String currency = text(object, "currency");
        return currency == null ? null : currency.toUpperCase(Locale.ROOT);
    }

    static String text(JsonObject object, String name) {
        return object.get(name) instanceof JsonString s ? s.getString() : null;
    }
}
