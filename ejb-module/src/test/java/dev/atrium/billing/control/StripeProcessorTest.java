package dev.atrium.billing.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpServer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.atrium.billing.entity.TopUp;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.webhook.WebhookSignature;

/** The Stripe adapter against Stripe-shaped answers and events (src/test/resources/stripe). */
class StripeProcessorTest {

    private static final String WEBHOOK_SECRET = "whsec_test_5f1c0a7e9b2d4c6a8e0f1b3d5c7a9e1f";
    private static final String SECRET_KEY = "sk_test_51PgT2fLkdIwHu7ixTESTONLY";
    private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");

    private HttpServer stripe;
    private final List<Map<String, Object>> requests = new CopyOnWriteArrayList<>();
    private int status = 200;
    private volatile long delayMillis;
    private String answer;
    private StripeProcessor processor;

    static String payload(String name, Map<String, String> values) throws IOException {
        String text = Files.readString(Path.of("src/test/resources/stripe", name));
        for (var e : values.entrySet()) {
            text = text.replace("{{" + e.getKey() + "}}", e.getValue());
        }
        return text;
    }

    @BeforeEach
    void stripeStub() throws IOException {
        stripe = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        stripe.createContext("/", exchange -> {
            var request = new HashMap<String, Object>();
            request.put("method", exchange.getRequestMethod());
            request.put("path", exchange.getRequestURI().getPath());
            request.put("headers", exchange.getRequestHeaders());
            request.put("body", new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            requests.add(request);
            if (delayMillis > 0) {
                try {
                    Thread.sleep(delayMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] out = answer.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        });
        // a thread per exchange, so that a late answer does not hold back the next request
        stripe.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        stripe.start();
        processor = new StripeProcessor();
        processor.config = ConfigDefaults.of(BillingConfig.class);
        processor.config.stripeApiBase = "http://127.0.0.1:" + stripe.getAddress().getPort() + "/";
        processor.config.stripeSecretKey = Optional.of(SECRET_KEY);
        processor.config.stripeWebhookSecret = Optional.of(WEBHOOK_SECRET);
        processor.config.stripeTimeoutSeconds = 5;
    }

    @AfterEach
    void stop() {
        stripe.stop(0);
    }

    private static TopUp topUp(String amount) {
        return new TopUp(42, new BigDecimal(amount), StripeProcessor.NAME, NOW);
    }

    private static Map<String, String> form(String body) {
        var form = new HashMap<String, String>();
        for (String pair : body.split("&")) {
            String[] kv = pair.split("=", 2);
            form.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8), URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
        }
        return form;
    }

    @Test
    void whenATopUpOpensThenStripeGetsAPaymentIntentInCentsKeyedByTheTopUp() throws IOException {
        var topUp = topUp("25.50");
        answer = payload("payment_intent.created.json", Map.of("payment_intent", "pi_3PgT3aLkdIwHu7ix0abc",
                "amount", "2550", "top_up_id", topUp.id().toString(), "user_id", "42"));

        var payment = processor.open(topUp);

        assertThat(payment.externalId()).isEqualTo("pi_3PgT3aLkdIwHu7ix0abc");
        assertThat(payment.clientSecret()).startsWith("pi_3PgT3aLkdIwHu7ix0abc_secret_");
        assertThat(payment.confirmed()).isFalse();
        var request = requests.get(0);
        assertThat(request.get("method")).isEqualTo("POST");
        assertThat(request.get("path")).isEqualTo("/v1/payment_intents");
        var headers = (com.sun.net.httpserver.Headers) request.get("headers");
        assertThat(headers.getFirst("Authorization")).isEqualTo("Bearer " + SECRET_KEY);
        assertThat(headers.getFirst("Idempotency-Key")).isEqualTo("atrium-top-up-" + topUp.id());
        assertThat(headers.getFirst("Stripe-Version")).isEqualTo(StripeProcessor.API_VERSION);
        assertThat(headers.getFirst("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
        assertThat(form((String) request.get("body"))).containsEntry("amount", "2550").containsEntry("currency", "usd")
                .containsEntry("metadata[top_up_id]", topUp.id().toString()).containsEntry("metadata[user_id]", "42")
                .containsEntry("automatic_payment_methods[enabled]", "true");
    }

    @ParameterizedTest(name = "Stripe answers {0} → {1}")
    @CsvSource({
            "400, UPSTREAM, error.invalid_request.json",
            "402, UPSTREAM, error.invalid_request.json",
            "401, UPSTREAM, error.invalid_request.json",
            "429, UNAVAILABLE, error.invalid_request.json",
            "500, UNAVAILABLE, error.invalid_request.json",
            "503, UNAVAILABLE, -",
            "200, UPSTREAM, -",
            "200, UPSTREAM, error.invalid_request.json"
    })
    void whenStripeRefusesOrFailsThenTheTopUpIsRefusedWithoutTheSecretInTheError(int code, Problem problem,
                                                                                   String file) throws IOException {
        status = code;
        answer = file.equals("-") ? "<html>Bad gateway</html>" : payload(file, Map.of());
        assertThatThrownBy(() -> processor.open(topUp("10.00"))).isInstanceOfSatisfying(BusinessException.class,
                e -> {
                    assertThat(e.problem()).isEqualTo(problem);
                    assertThat(e.getMessage() + e.details()).doesNotContain(SECRET_KEY);
                });
    }

    @Test
    void whenStripeCannotBeReachedThenTheTopUpIsRefusedAsUnavailable() throws IOException {
        try (var socket = new ServerSocket(0)) {
            processor.config.stripeApiBase = "http://127.0.0.1:" + socket.getLocalPort();
        }
        assertThatThrownBy(() -> processor.open(topUp("10.00"))).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE));
    }

    @Test
    void whenStripeAnswersPastTheTimeoutThenPaymentTimedOutForTopUpsAndUnavailableForTransfers() throws IOException {
        answer = payload("payment_intent.created.json", Map.of("payment_intent", "pi_3PgT3aLkdIwHu7ix0late",
                "amount", "1000", "top_up_id", UUID.randomUUID().toString(), "user_id", "42"));
        processor.config.stripeTimeoutSeconds = 1;
        delayMillis = 2_500;
        assertThatThrownBy(() -> processor.open(topUp("10.00"))).isInstanceOfSatisfying(BusinessException.class,
                e -> {
                    assertThat(e.problem()).isEqualTo(Problem.PAYMENT_TIMED_OUT);
                    assertThat(e.problem().status()).isEqualTo(504);
                    assertThat(e.problem().code()).isEqualTo(30002);
                    assertThat(e.getMessage() + e.details()).doesNotContain(SECRET_KEY);
                });
        // a payout's transfer waits for the month's next run, as when Stripe is down
        assertThatThrownBy(() -> processor.transfer(UUID.randomUUID(), new BigDecimal("70"), "acct_1AtriumLate",
                "2026-11")).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE));
    }

    @Test
    void whenNoSecretKeyIsConfiguredThenTopUpsAreUnavailable() {
        processor.config.stripeSecretKey = Optional.empty();
        assertThatThrownBy(() -> processor.open(topUp("10.00"))).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE));
        assertThat(requests).isEmpty();
    }

    private static String signed(byte[] body, Instant at) {
        return WebhookSignature.sign(WEBHOOK_SECRET.getBytes(StandardCharsets.UTF_8), at.getEpochSecond(), body);
    }

    private static Map<String, String> values(UUID topUp, String cents) {
        return Map.of("payment_intent", "pi_3PgT3aLkdIwHu7ix0abc", "amount", cents, "amount_received", cents,
                "top_up_id", topUp.toString(), "user_id", "42", "idempotency_key", "atrium-top-up-" + topUp);
    }

    @Test
    void whenPaymentIntentSucceededArrivesSignedThenItConfirmsTheTopUpWithTheAmountReceived() throws IOException {
        UUID topUp = UUID.randomUUID();
        byte[] body = payload("event.payment_intent.succeeded.json", values(topUp, "2550"))
                .getBytes(StandardCharsets.UTF_8);

        var event = processor.read(body, signed(body, NOW.minusSeconds(20)), NOW).orElseThrow();

        assertThat(event.outcome()).isEqualTo(PaymentProcessor.Outcome.SUCCEEDED);
        assertThat(event.topUpId()).isEqualTo(topUp);
        assertThat(event.externalId()).isEqualTo("pi_3PgT3aLkdIwHu7ix0abc");
        assertThat(event.amount()).isEqualByComparingTo("25.50");
        assertThat(event.currency()).isEqualTo("USD");
    }

    @Test
    void whenPaymentIntentCanceledArrivesThenTheTopUpFails() throws IOException {
        UUID topUp = UUID.randomUUID();
        byte[] body = payload("event.payment_intent.canceled.json", values(topUp, "2550"))
                .getBytes(StandardCharsets.UTF_8);
        var event = processor.read(body, signed(body, NOW), NOW).orElseThrow();
        assertThat(event.outcome()).isEqualTo(PaymentProcessor.Outcome.FAILED);
        assertThat(event.topUpId()).isEqualTo(topUp);
    }

    @ParameterizedTest
    @CsvSource({"event.payment_intent.payment_failed.json", "event.charge.succeeded.json"})
    void whenAnotherEventArrivesThenItIsAcknowledgedAndChangesNothing(String file) throws IOException {
        byte[] body = payload(file, values(UUID.randomUUID(), "2550")).getBytes(StandardCharsets.UTF_8);
        assertThat(processor.read(body, signed(body, NOW), NOW)).isEmpty();
    }

    @Test
    void whenAPaymentOfSomethingElseSucceedsThenItIsAcknowledgedAndIgnored() throws IOException {
        byte[] body = payload("event.payment_intent.succeeded.json", values(UUID.randomUUID(), "2550"))
                .replaceAll("\"top_up_id\": \"[^\"]+\",", "").getBytes(StandardCharsets.UTF_8);
        assertThat(processor.read(body, signed(body, NOW), NOW)).isEmpty();
    }

    /** Hostile callbacks: each is refused with the given status, and nothing is read from it. */
    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', value = {
            "no signature header                 | 401",
            "signed with another secret          | 401",
            "body changed after signing          | 401",
            "signature header without v1         | 401",
            "signature header of garbage         | 401",
            "signed 301 s ago                    | 400",
            "signed 301 s ahead                  | 400",
            "not JSON                            | 400",
            "a JSON array                        | 400",
            "not an event object                 | 400",
            "data.object not a payment intent    | 400",
            "top_up_id not a UUID                | 400",
            "amount_received as text             | 400",
            "amount_received with decimals       | 400",
            "amount_received missing             | 400"
    })
    void whenACallbackIsHostileThenItIsRefused(String hostile, int status) throws IOException {
        UUID topUp = UUID.randomUUID();
        String good = payload("event.payment_intent.succeeded.json", values(topUp, "2550"));
        String text = switch (hostile.strip()) {
            case "not JSON" -> "payment_intent.succeeded " + topUp;
            case "a JSON array" -> "[" + good + "]";
            case "not an event object" -> good.replace("\"object\": \"event\"", "\"object\": \"evnt\"");
            case "data.object not a payment intent" -> good.replace("\"object\": \"payment_intent\"",
                    "\"object\": \"charge\"");
            case "top_up_id not a UUID" -> good.replace(topUp.toString(), "'; DROP TABLE billing_top_ups; --");
            case "amount_received as text" -> good.replace("\"amount_received\": 2550", "\"amount_received\": \"2550\"");
            case "amount_received with decimals" -> good.replace("\"amount_received\": 2550",
                    "\"amount_received\": 2550.5");
            case "amount_received missing" -> good.replace("\"amount_received\": 2550,", "");
            default -> good;
        };
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        String signature = switch (hostile.strip()) {
            case "no signature header" -> null;
            case "signed with another secret" -> WebhookSignature.sign("whsec_other".getBytes(StandardCharsets.UTF_8),
                    NOW.getEpochSecond(), body);
            case "body changed after signing" -> signed(good.replace("2550", "9999").getBytes(StandardCharsets.UTF_8),
                    NOW);
            case "signature header without v1" -> "t=" + NOW.getEpochSecond();
            case "signature header of garbage" -> "\u0000\u00ff,,==,t=x,v1=zz";
            case "signed 301 s ago" -> signed(body, NOW.minusSeconds(301));
            case "signed 301 s ahead" -> signed(body, NOW.plusSeconds(301));
            default -> signed(body, NOW);
        };
        assertThatThrownBy(() -> processor.read(body, signature, NOW)).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem().status()).isEqualTo(status));
    }

    /**
     * Correctly signed bodies cut and spliced at random (a processor's bug, or a leaked secret): every one is read
     * or refused with 400, never another failure.
     */
    @Test
    void whenSignedBodiesAreMangledAtRandomThenEachIsReadOrRefusedCleanly() throws IOException {
        String good = payload("event.payment_intent.succeeded.json", values(UUID.randomUUID(), "2550"));
        var random = new Random(20261124);
        String[] splices = {"null", "[]", "{}", "\"x\"", "-1", "1e400", "true", "\"payment_intent\"", "\uD800"};
        for (int i = 0; i < 2000; i++) {
            var text = new StringBuilder(good);
            for (int cuts = 1 + random.nextInt(3); cuts > 0; cuts--) {
                int at = random.nextInt(text.length());
                int end = Math.min(text.length(), at + random.nextInt(40));
                text.replace(at, end, random.nextBoolean() ? splices[random.nextInt(splices.length)] : "");
            }
            byte[] body = text.toString().getBytes(StandardCharsets.UTF_8);
            try {
                processor.read(body, signed(body, NOW), NOW);
            } catch (BusinessException e) {
                assertThat(e.problem().status()).as(text.toString()).isEqualTo(400);
            }
        }
    }

    @Test
    void whenStripeWebhooksAreNotConfiguredThenCallbacksAreUnavailable() throws IOException {
        processor.config.stripeWebhookSecret = Optional.of(" ");
        byte[] body = payload("event.payment_intent.succeeded.json", values(UUID.randomUUID(), "2550"))
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> processor.read(body, signed(body, NOW), NOW))
                .isInstanceOfSatisfying(BusinessException.class,
                        e -> assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE));
    }
}
