package dev.atrium.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

/**
 * Stripe's payment intent and transfer endpoints as the resilience server sees them: {@code POST /v1/payment_intents}
 * answers the recorded intent ({@code ejb-module/src/test/resources/stripe}) with a new id, the amount and the metadata
 * asked for, {@code POST /v1/transfers} the recorded transfer with a new id, the amount, destination and payout;
 * {@link #failWith(int)} makes it answer an error instead, {@link #delay(Duration)} answer late (past the server's
 * timeout). Every request is kept for the tests to read.
 */
public final class StripeStub {

    public static final String SECRET_KEY = "sk_test_51AtriumIntegrationTestsOnly";
    public static final String WEBHOOK_SECRET = "whsec_atrium_integration_tests_4f2a9c";
    static final Path PAYLOADS = Path.of("../ejb-module/src/test/resources/stripe");

    /** A request Stripe received: its form and headers. */
    public record Request(Map<String, String> form, Map<String, List<String>> headers) {
    }

    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger sequence = new AtomicInteger();
    private volatile int failure;
    private volatile long delayMillis;

    private StripeStub(HttpServer server) {
        this.server = server;
    }

    public static String payload(String name, Map<String, String> values) {
        try {
            String text = Files.readString(PAYLOADS.resolve(name));
            for (var e : values.entrySet()) {
                text = text.replace("{{" + e.getKey() + "}}", e.getValue());
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static StripeStub start() throws IOException {
        var server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        var stub = new StripeStub(server);
        server.createContext("/v1/payment_intents", exchange -> {
            var form = new HashMap<String, String>();
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            for (String pair : body.split("&")) {
                String[] kv = pair.split("=", 2);
                if (kv.length == 2) {
                    form.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                            URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
                }
            }
            stub.requests.add(new Request(form, Map.copyOf(exchange.getRequestHeaders())));
            stub.answerLate();
            int status = stub.failure == 0 ? 200 : stub.failure;
            String answer = status == 200 ? payload("payment_intent.created.json", Map.of(
                    "payment_intent", "pi_3AtriumIt" + String.format("%08d", stub.sequence.incrementAndGet()),
                    "amount", form.getOrDefault("amount", "0"),
                    "top_up_id", form.getOrDefault("metadata[top_up_id]", ""),
                    "user_id", form.getOrDefault("metadata[user_id]", "")))
                    : payload("error.invalid_request.json", Map.of());
            byte[] out = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        });
        server.createContext("/v1/transfers", exchange -> {
            var form = new HashMap<String, String>();
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            for (String pair : body.split("&")) {
                String[] kv = pair.split("=", 2);
                if (kv.length == 2) {
                    form.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                            URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
                }
            }
            stub.requests.add(new Request(form, Map.copyOf(exchange.getRequestHeaders())));
            int status = stub.failure == 0 ? 200 : stub.failure;
            String answer = status == 200 ? payload("transfer.created.json", Map.of(
                    "transfer", "tr_1AtriumIt" + String.format("%08d", stub.sequence.incrementAndGet()),
                    "amount", form.getOrDefault("amount", "0"),
                    "destination", form.getOrDefault("destination", ""),
                    "payout_id", form.getOrDefault("metadata[payout_id]", ""),
                    "transfer_group", form.getOrDefault("transfer_group", "")))
                    : payload("error.invalid_request.json", Map.of());
            byte[] out = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        });
        // a thread per exchange, so that an answer held back does not hold back the next request
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        return stub;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Answers {@code status} with Stripe's error body from now on; 0 answers normally again. */
    public void failWith(int status) {
        failure = status;
    }

    /** Holds each answer back this long from now on (the exchange's thread waits); zero answers at once again. */
    public void delay(Duration delay) {
        delayMillis = delay.toMillis();
    }

    private void answerLate() {
        long wait = delayMillis;
        if (wait > 0) {
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    void stop() {
        server.stop(0);
    }
}
