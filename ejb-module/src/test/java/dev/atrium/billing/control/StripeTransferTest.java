package dev.atrium.billing.control;

import static dev.atrium.billing.control.StripeProcessorTest.payload;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.YearMonth;
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

import dev.atrium.billing.entity.Payout;
import dev.atrium.billing.entity.PayoutAccount;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.webhook.WebhookSignature;

/**
 * Payouts by Stripe Connect: the transfer request, Stripe's refusals, and the signed {@code transfer.*} events, hostile
 * ones included, against Stripe-shaped answers (src/test/resources/stripe); the payout's states on each event.
 */
class StripeTransferTest {

    private static final String WEBHOOK_SECRET = "whsec_test_5f1c0a7e9b2d4c6a8e0f1b3d5c7a9e1f";
    private static final String SECRET_KEY = "sk_test_51PgT2fLkdIwHu7ixTESTONLY";
    private static final Instant NOW = Instant.parse("2026-12-01T03:05:00Z");
    private static final String ACCOUNT = "acct_1QAtriumDeveloper01";
    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261128L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 2000);

    private HttpServer stripe;
    private final List<Map<String, Object>> requests = new CopyOnWriteArrayList<>();
    private int status = 200;
    private String answer;
    private StripeProcessor processor;

    @BeforeEach
    void stripeStub() throws IOException {
        stripe = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        stripe.createContext("/", exchange -> {
            var request = new HashMap<String, Object>();
            request.put("path", exchange.getRequestURI().getPath());
            request.put("headers", exchange.getRequestHeaders());
            request.put("body", new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            requests.add(request);
            byte[] out = answer.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        });
        stripe.start();
        processor = new StripeProcessor();
        processor.config = ConfigDefaults.of(BillingConfig.class);
        processor.config.stripeApiBase = "http://127.0.0.1:" + stripe.getAddress().getPort();
        processor.config.stripeSecretKey = Optional.of(SECRET_KEY);
        processor.config.stripeWebhookSecret = Optional.of(WEBHOOK_SECRET);
        processor.config.stripeTimeoutSeconds = 5;
    }

    @AfterEach
    void stop() {
        stripe.stop(0);
    }

    private static Map<String, String> values(UUID payout, String cents) {
        return Map.of("transfer", "tr_1QAtriumTransfer0001", "amount", cents, "destination", ACCOUNT,
                "payout_id", payout.toString(), "transfer_group", "2026-11");
    }

    private static String signed(byte[] body, Instant at) {
        return WebhookSignature.sign(WEBHOOK_SECRET.getBytes(StandardCharsets.UTF_8), at.getEpochSecond(), body);
    }

    private Optional<StripeProcessor.TransferEvent> event(String file, Map<String, String> values) throws IOException {
        byte[] body = payload(file, values).getBytes(StandardCharsets.UTF_8);
        return processor.transferEvent(processor.verified(body, signed(body, NOW), NOW));
    }

    private static Payout pendingPayout(String amount) {
        var account = new PayoutAccount(7);
        account.change(PayoutAccount.Method.PROCESSOR, "Ada", null, null, ACCOUNT, NOW);
        return Payout.paid(7, YearMonth.of(2026, 11), new BigDecimal(amount), account, "transfer not sent yet", NOW);
    }

    @Test
    void whenAPayoutIsTransferredThenStripeGetsTheAmountInCentsToTheConnectedAccountKeyedByThePayout()
            throws IOException {
        UUID payout = UUID.randomUUID();
        answer = payload("transfer.created.json", values(payout, "7000"));

        var transfer = processor.transfer(payout, new BigDecimal("70.000000"), ACCOUNT, "2026-11");

        assertThat(transfer.id()).isEqualTo("tr_1QAtriumTransfer0001");
        var request = requests.get(0);
        assertThat(request.get("path")).isEqualTo("/v1/transfers");
        var headers = (com.sun.net.httpserver.Headers) request.get("headers");
        assertThat(headers.getFirst("Idempotency-Key")).isEqualTo("atrium-payout-" + payout);
        assertThat(headers.getFirst("Authorization")).isEqualTo("Bearer " + SECRET_KEY);
        var form = new HashMap<String, String>();
        for (String pair : ((String) request.get("body")).split("&")) {
            String[] kv = pair.split("=", 2);
            form.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                    URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
        }
        assertThat(form).containsEntry("amount", "7000").containsEntry("currency", "usd")
                .containsEntry("destination", ACCOUNT).containsEntry("metadata[payout_id]", payout.toString())
                .containsEntry("transfer_group", "2026-11");
    }

    @ParameterizedTest(name = "Stripe answers {0} → {1}")
    @CsvSource({
            "400, UPSTREAM, error.invalid_request.json",
            "402, UPSTREAM, error.invalid_request.json",
            "404, UPSTREAM, -",
            "401, UNAVAILABLE, error.invalid_request.json",
            "409, UNAVAILABLE, error.invalid_request.json",
            "429, UNAVAILABLE, error.invalid_request.json",
            "500, UNAVAILABLE, -",
            "200, UNAVAILABLE, -",
            "200, UNAVAILABLE, error.invalid_request.json",
            "200, UNAVAILABLE, payment_intent.created.json"
    })
    void whenStripeRefusesOrFailsThenTheTransferIsRefusedForGoodOrForNow(int code, Problem problem, String file)
            throws IOException {
        status = code;
        answer = file.equals("-") ? "<html>Bad gateway</html>" : payload(file, Map.of("payment_intent", "pi_1",
                "amount", "7000", "top_up_id", "x", "user_id", "1"));
        assertThatThrownBy(() -> processor.transfer(UUID.randomUUID(), new BigDecimal("70"), ACCOUNT, "2026-11"))
                .isInstanceOfSatisfying(BusinessException.class, e -> {
                    assertThat(e.problem()).isEqualTo(problem);
                    assertThat(e.getMessage() + e.details()).doesNotContain(SECRET_KEY);
                });
    }

    @Test
    void whenStripeAnswersAnotherAmountOrDestinationThenTheTransferIsNotTakenAsSent() throws IOException {
        UUID payout = UUID.randomUUID();
        answer = payload("transfer.created.json", values(payout, "7001"));
        assertThatThrownBy(() -> processor.transfer(payout, new BigDecimal("70"), ACCOUNT, "2026-11"))
                .isInstanceOfSatisfying(BusinessException.class, e -> assertThat(e.problem())
                        .isEqualTo(Problem.UNAVAILABLE));
        answer = payload("transfer.created.json", values(payout, "7000")).replace(ACCOUNT, "acct_1QSomeoneElse000");
        assertThatThrownBy(() -> processor.transfer(payout, new BigDecimal("70"), ACCOUNT, "2026-11"))
                .isInstanceOf(BusinessException.class);
    }

    @ParameterizedTest
    @CsvSource({"event.transfer.created.json, SUCCEEDED", "event.transfer.failed.json, FAILED",
            "event.transfer.reversed.json, FAILED"})
    void whenATransferEventArrivesSignedThenItNamesThePayoutAndTheOutcome(String file,
                                                                         dev.atrium.billing.control.PaymentProcessor
                                                                                 .Outcome outcome) throws IOException {
        UUID payout = UUID.randomUUID();
        var event = event(file, values(payout, "7000")).orElseThrow();

        assertThat(event.outcome()).isEqualTo(outcome);
        assertThat(event.payoutId()).isEqualTo(payout);
        assertThat(event.transferId()).isEqualTo("tr_1QAtriumTransfer0001");
        assertThat(event.amount()).isEqualByComparingTo("70.00");
        assertThat(event.currency()).isEqualTo("USD");
        assertThat(event.destination()).isEqualTo(ACCOUNT);
    }

    @Test
    void whenATransferOfSomethingElseOrAPartialReversalArrivesThenItIsAcknowledgedAndIgnored() throws IOException {
        String other = payload("event.transfer.created.json", values(UUID.randomUUID(), "7000"))
                .replaceAll("\"payout_id\": \"[^\"]+\"", "\"order\": \"42\"");
        byte[] body = other.getBytes(StandardCharsets.UTF_8);
        assertThat(processor.transferEvent(processor.verified(body, signed(body, NOW), NOW))).isEmpty();
        String partial = payload("event.transfer.reversed.json", values(UUID.randomUUID(), "7000"))
                .replace("\"reversed\": true", "\"reversed\": false");
        byte[] partly = partial.getBytes(StandardCharsets.UTF_8);
        assertThat(processor.transferEvent(processor.verified(partly, signed(partly, NOW), NOW))).isEmpty();
    }

    /** Hostile transfer events: each is refused with the given status, and nothing is read from it. */
    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', value = {
            "no signature                     | 401",
            "signed with another secret       | 401",
            "amount changed after signing     | 401",
            "replayed 301 s later             | 400",
            "data.object not a transfer       | 400",
            "payout_id not a UUID             | 400",
            "amount as text                   | 400",
            "amount with decimals             | 400",
            "amount missing                   | 400"
    })
    void whenATransferEventIsHostileThenItIsRefused(String hostile, int expected) throws IOException {
        UUID payout = UUID.randomUUID();
        String good = payload("event.transfer.created.json", values(payout, "7000"));
        String text = switch (hostile.strip()) {
            case "data.object not a transfer" -> good.replace("\"object\": \"transfer\"", "\"object\": \"payout\"");
            case "payout_id not a UUID" -> good.replace(payout.toString(), "../../etc/passwd");
            case "amount as text" -> good.replace("\"amount\": 7000", "\"amount\": \"7000\"");
            case "amount with decimals" -> good.replace("\"amount\": 7000", "\"amount\": 7000.5");
            case "amount missing" -> good.replace("\"amount\": 7000,", "");
            default -> good;
        };
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        String signature = switch (hostile.strip()) {
            case "no signature" -> null;
            case "signed with another secret" -> WebhookSignature.sign("whsec_x".getBytes(StandardCharsets.UTF_8),
                    NOW.getEpochSecond(), body);
            case "amount changed after signing" -> signed(good.replace("7000", "9000")
                    .getBytes(StandardCharsets.UTF_8), NOW);
            case "replayed 301 s later" -> signed(body, NOW.minusSeconds(301));
            default -> signed(body, NOW);
        };
        assertThatThrownBy(() -> processor.transferEvent(processor.verified(body, signature, NOW)))
                .isInstanceOfSatisfying(BusinessException.class, e -> assertThat(e.problem().status())
                        .isEqualTo(expected));
    }

    @Test
    void whenSignedTransferEventsAreMangledAtRandomThenEachIsReadOrRefusedCleanly() throws IOException {
        String good = payload("event.transfer.reversed.json", values(UUID.randomUUID(), "7000"));
        var random = new Random(SEED);
        String[] splices = {"null", "[]", "{}", "\"x\"", "-1", "1e400", "true", "\"transfer\"", "\uD800"};
        for (int round = 0; round < ROUNDS; round++) {
            var text = new StringBuilder(good);
            for (int cuts = 1 + random.nextInt(3); cuts > 0; cuts--) {
                int at = random.nextInt(text.length());
                int end = Math.min(text.length(), at + random.nextInt(40));
                text.replace(at, end, random.nextBoolean() ? splices[random.nextInt(splices.length)] : "");
            }
            byte[] body = text.toString().getBytes(StandardCharsets.UTF_8);
            try {
                processor.transferEvent(processor.verified(body, signed(body, NOW), NOW));
            } catch (BusinessException e) {
                assertThat(e.problem().status()).as("seed " + SEED + " round " + round + ": " + text).isEqualTo(400);
            }
        }
    }

    @Test
    void whenTheEventNamesAnotherTransferAmountCurrencyOrDestinationThenThePayoutRefusesIt() {
        var payout = pendingPayout("70.00");
        payout.transferred("tr_1QAtriumTransfer0001", NOW);
        UUID id = payout.id();
        var ok = new StripeProcessor.TransferEvent(PaymentProcessor.Outcome.SUCCEEDED, "transfer.created", id,
                "tr_1QAtriumTransfer0001", new BigDecimal("70.00"), "USD", ACCOUNT);

        assertThat(Payouts.mismatch(payout, ok)).isNull();
        assertThat(Payouts.mismatch(payout, new StripeProcessor.TransferEvent(ok.outcome(), ok.type(), id,
                "tr_1QAnotherTransfer01", ok.amount(), "USD", ACCOUNT))).isEqualTo("another transfer");
        assertThat(Payouts.mismatch(payout, new StripeProcessor.TransferEvent(ok.outcome(), ok.type(), id,
                ok.transferId(), new BigDecimal("7000.00"), "USD", ACCOUNT))).startsWith("amount");
        assertThat(Payouts.mismatch(payout, new StripeProcessor.TransferEvent(ok.outcome(), ok.type(), id,
                ok.transferId(), ok.amount(), "EUR", ACCOUNT))).isEqualTo("currency EUR");
        assertThat(Payouts.mismatch(payout, new StripeProcessor.TransferEvent(ok.outcome(), ok.type(), id,
                ok.transferId(), ok.amount(), "USD", "acct_1QSomeoneElse000"))).isEqualTo("another destination");
    }

    @Test
    void whenEventsRepeatThenAPayoutIsPaidOnceAndFailsOnce() {
        var payout = pendingPayout("70.00");
        assertThat(payout.status()).isEqualTo(Payout.Status.PENDING);
        assertThat(payout.awaitsTransfer()).isTrue();

        payout.transferred("tr_1QAtriumTransfer0001", NOW);
        payout.transferred("tr_1QAnotherTransfer01", NOW);
        assertThat(payout.transferId()).as("the first transfer stays").isEqualTo("tr_1QAtriumTransfer0001");
        assertThat(payout.confirm(NOW)).isTrue();
        assertThat(payout.confirm(NOW)).as("a duplicate event").isFalse();
        assertThat(payout.status()).isEqualTo(Payout.Status.PAID);
        assertThat(payout.fail("Stripe: transfer.reversed", NOW)).as("reversed after it was paid").isTrue();
        assertThat(payout.fail("Stripe: transfer.reversed", NOW)).as("the same reversal again").isFalse();
        assertThat(payout.confirm(NOW)).as("no success after a failure").isFalse();
        assertThat(payout.status()).isEqualTo(Payout.Status.FAILED);
        assertThat(payout.status().paid()).isFalse();
    }
}
