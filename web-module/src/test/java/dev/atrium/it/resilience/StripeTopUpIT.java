package dev.atrium.it.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.atrium.it.Accounts;
import dev.atrium.it.Api;
import dev.atrium.it.AtriumServer;
import dev.atrium.it.Reply;
import dev.atrium.it.StripeStub;
import dev.atrium.platform.webhook.WebhookSignature;

/**
 * Top-ups through Stripe (the resilience server is configured with it, its API played by {@link StripeStub}): the
 * server opens a PaymentIntent in cents for the top-up, and Stripe's signed {@code payment_intent.*} events, in
 * the recorded shapes, credit it once, fail it, or are refused; when Stripe fails, no top-up is left behind.
 */
@ExtendWith(AtriumServer.class)
class StripeTopUpIT {

    @BeforeEach
    void resilienceOnly() {
        assumeTrue(AtriumServer.get().resilience(), "the resilience server is the one configured with Stripe");
    }

    @AfterEach
    void stripeAnswersAgain() {
        if (AtriumServer.get().stripe() != null) {
            AtriumServer.get().stripe().failWith(0);
            AtriumServer.get().stripe().delay(java.time.Duration.ZERO);
        }
    }

    private static BigDecimal balance(Accounts.Account user) {
        return user.api().get("/v1/me/balance").json().get("balance").decimalValue();
    }

    private static Reply event(String file, String topUp, String paymentIntent, String cents, Instant signedAt,
                               String secret) {
        String body = StripeStub.payload(file, Map.of("payment_intent", paymentIntent, "amount", cents,
                "amount_received", cents, "top_up_id", topUp, "user_id", "0", "idempotency_key",
                "atrium-top-up-" + topUp));
        byte[] raw = body.getBytes(StandardCharsets.UTF_8);
        return Api.anonymous().header("Stripe-Signature", WebhookSignature.sign(
                        secret.getBytes(StandardCharsets.UTF_8), signedAt.getEpochSecond(), raw))
                .send("POST", "/v1/billing/webhooks/stripe", raw, "application/json");
    }

    private static Reply event(String file, String topUp, String paymentIntent, String cents) {
        return event(file, topUp, paymentIntent, cents, Instant.now(), StripeStub.WEBHOOK_SECRET);
    }

    private static long entries(String reference) throws Exception {
        try (var c = DriverManager.getConnection(AtriumServer.get().jdbcUrl(), AtriumServer.Services.postgresUser(),
                "");
             var s = c.prepareStatement("SELECT COUNT(*) FROM journal_entries WHERE reference = ?")) {
            s.setString(1, reference);
            try (var r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    @Test
    void whenStripeConfirmsAPaymentIntentThenTheTopUpIsCreditedOnceWhateverIsReplayed() throws Exception {
        var user = Accounts.verified("stripe");
        BigDecimal before = balance(user);
        int asked = AtriumServer.get().stripe().requests().size();

        var created = user.api().post("/v1/billing/top-ups", Map.of("amount", new BigDecimal("25.50")));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String id = created.json().get("id").asText();
        assertThat(created.json().get("status").asText()).isEqualTo("pending");
        assertThat(created.json().get("processor").asText()).isEqualTo("stripe");
        String clientSecret = created.json().get("client_secret").asText();
        assertThat(clientSecret).matches("pi_3AtriumIt\\d{8}_secret_\\w+");
        String paymentIntent = clientSecret.substring(0, clientSecret.indexOf("_secret_"));
        var request = AtriumServer.get().stripe().requests().get(asked);
        assertThat(request.form()).containsEntry("amount", "2550").containsEntry("currency", "usd")
                .containsEntry("metadata[top_up_id]", id)
                .containsEntry("metadata[user_id]", Long.toString(user.id()));
        assertThat(request.headers().get("Idempotency-key")).containsExactly("atrium-top-up-" + id);
        assertThat(user.api().get("/v1/billing/top-ups/" + id).json().path("client_secret").isTextual())
                .as("the client secret is handed out once, not kept").isFalse();
        assertThat(balance(user)).isEqualByComparingTo(before);

        // events that credit nothing: a failed attempt (the payer may try another card), another object's event
        assertThat(event("event.payment_intent.payment_failed.json", id, paymentIntent, "2550").json()
                .get("credited").asBoolean()).isFalse();
        assertThat(event("event.charge.succeeded.json", id, paymentIntent, "2550").status()).isEqualTo(200);
        assertThat(user.api().get("/v1/billing/top-ups/" + id).json().get("status").asText()).isEqualTo("pending");

        var succeeded = event("event.payment_intent.succeeded.json", id, paymentIntent, "2550");
        assertThat(succeeded.status()).as(succeeded.toString()).isEqualTo(200);
        assertThat(succeeded.json().get("credited").asBoolean()).isTrue();
        assertThat(balance(user)).isEqualByComparingTo(before.add(new BigDecimal("25.50")));

        // Stripe delivers at least once: the same event again, and again signed later, credits nothing
        assertThat(event("event.payment_intent.succeeded.json", id, paymentIntent, "2550").json().get("credited")
                .asBoolean()).isFalse();
        assertThat(event("event.payment_intent.succeeded.json", id, paymentIntent, "2550", Instant.now()
                .plusSeconds(60), StripeStub.WEBHOOK_SECRET).json().get("credited").asBoolean()).isFalse();
        assertThat(balance(user)).isEqualByComparingTo(before.add(new BigDecimal("25.50")));
        assertThat(entries("top-up:" + id)).isEqualTo(1);
        assertThat(user.api().get("/v1/billing/top-ups/" + id).json().get("status").asText()).isEqualTo("succeeded");
    }

    @Test
    void whenAStripeEventIsForgedMismatchedOrStaleThenNothingIsCredited() throws Exception {
        var user = Accounts.verified("stripe-hostile");
        BigDecimal before = balance(user);
        var created = user.api().post("/v1/billing/top-ups", Map.of("amount", new BigDecimal("10.00"))).json();
        String id = created.get("id").asText();
        String secret = created.get("client_secret").asText();
        String paymentIntent = secret.substring(0, secret.indexOf("_secret_"));

        assertThat(event("event.payment_intent.succeeded.json", id, paymentIntent, "1000", Instant.now(),
                "whsec_guessed").status()).as("another secret").isEqualTo(401);
        assertThat(Api.anonymous().send("POST", "/v1/billing/webhooks/stripe", StripeStub.payload(
                "event.payment_intent.succeeded.json", Map.of("payment_intent", paymentIntent, "amount", "1000",
                        "amount_received", "1000", "top_up_id", id)).getBytes(StandardCharsets.UTF_8),
                "application/json").status()).as("unsigned").isEqualTo(401);
        assertThat(event("event.payment_intent.succeeded.json", id, paymentIntent, "1000",
                Instant.now().minusSeconds(400), StripeStub.WEBHOOK_SECRET).status()).as("replayed late")
                .isEqualTo(400);
        var less = event("event.payment_intent.succeeded.json", id, paymentIntent, "999");
        assertThat(less.status()).as("a cent less received: " + less).isEqualTo(422);
        assertThat(less.json().get("error").get("code").asInt()).isEqualTo(40001);
        assertThat(event("event.payment_intent.succeeded.json", id, "pi_3SomebodyElses00000001", "1000").status())
                .as("another payment intent").isEqualTo(422);
        assertThat(event("event.payment_intent.succeeded.json", java.util.UUID.randomUUID().toString(),
                paymentIntent, "1000").status()).as("an unknown top-up").isEqualTo(404);
        assertThat(balance(user)).isEqualByComparingTo(before);
        assertThat(entries("top-up:" + id)).isZero();

        // the payer walks away: Stripe cancels the intent, the top-up fails
        assertThat(event("event.payment_intent.canceled.json", id, paymentIntent, "1000").status()).isEqualTo(200);
        assertThat(user.api().get("/v1/billing/top-ups/" + id).json().get("status").asText()).isEqualTo("failed");
        assertThat(balance(user)).isEqualByComparingTo(before);
    }

    @Test
    void whenStripeRefusesOrFailsThenTheTopUpIsRefusedAndNoneIsLeftBehind() throws Exception {
        var user = Accounts.verified("stripe-down");
        try (var c = DriverManager.getConnection(AtriumServer.get().jdbcUrl(), AtriumServer.Services.postgresUser(),
                "")) {
            for (int status : new int[] {500, 402, 429}) {
                AtriumServer.get().stripe().failWith(status);
                var refused = user.api().post("/v1/billing/top-ups", Map.of("amount", new BigDecimal("10.00")));
                assertThat(refused.status()).as(status + ": " + refused).isEqualTo(status == 402 ? 502 : 503);
                assertThat(refused.body()).doesNotContain(StripeStub.SECRET_KEY);
                try (var s = c.prepareStatement("SELECT COUNT(*) FROM billing_top_ups WHERE user_id = ?")) {
                    s.setLong(1, user.id());
                    try (var r = s.executeQuery()) {
                        r.next();
                        assertThat(r.getLong(1)).as("no top-up is left pending").isZero();
                    }
                }
            }
        }
        assertThat(AtriumServer.get().serverLog()).content().doesNotContain(StripeStub.SECRET_KEY)
                .doesNotContain(StripeStub.WEBHOOK_SECRET);
    }

    @Test
    void whenStripeAnswersPastTheTimeoutThenPaymentTimedOut30002AndNoTopUpIsKept() throws Exception {
        var user = Accounts.verified("stripe-slow");
        BigDecimal before = balance(user);
        int asked = AtriumServer.get().stripe().requests().size();
        AtriumServer.get().stripe().delay(java.time.Duration.ofSeconds(AtriumServer.STRIPE_TIMEOUT_SECONDS + 2));

        var late = user.api().post("/v1/billing/top-ups", Map.of("amount", new BigDecimal("12.00")));

        assertThat(late.status()).as(late.toString()).isEqualTo(504);
        assertThat(late.json().at("/error/code").asInt()).isEqualTo(30002);
        assertThat(late.json().at("/error/message").asText()).isEqualTo("Payment timed out");
        assertThat(late.body()).doesNotContain(StripeStub.SECRET_KEY);
        assertThat(AtriumServer.get().stripe().requests()).hasSize(asked + 1);
        try (var c = DriverManager.getConnection(AtriumServer.get().jdbcUrl(), AtriumServer.Services.postgresUser(),
                "");
             var s = c.prepareStatement("SELECT COUNT(*) FROM billing_top_ups WHERE user_id = ?")) {
            s.setLong(1, user.id());
            try (var r = s.executeQuery()) {
                r.next();
                assertThat(r.getLong(1)).as("no top-up is kept, so none waits for a payment nobody can make").isZero();
            }
        }
        assertThat(balance(user)).isEqualByComparingTo(before);

        AtriumServer.get().stripe().delay(java.time.Duration.ZERO);
        var again = user.api().post("/v1/billing/top-ups", Map.of("amount", new BigDecimal("12.00")));
        assertThat(again.status()).as("the payer may try again: " + again).isEqualTo(201);
    }
}
