package dev.atrium.sdk;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/** A marketplace stand-in on a free local port: answers as each test's handler says and records what it was sent. */
public final class StubServer implements AutoCloseable {

    public record Request(String method, String path, String query, Map<String, List<String>> headers, String body) {
        public String header(String name) {
            var values = headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).findFirst();
            return values.map(e -> e.getValue().get(0)).orElse(null);
        }
    }

    public record Answer(int status, String body, Map<String, String> headers, long delayMillis) {
        public static Answer json(int status, String body) {
            return new Answer(status, body, Map.of(), 0);
        }

        public Answer with(String header, String value) {
            var all = new java.util.HashMap<>(headers);
            all.put(header, value);
            return new Answer(status, body, all, delayMillis);
        }

        public Answer after(long millis) {
            return new Answer(status, body, headers, millis);
        }
    }

    public interface Handler {
        Answer answer(Request request, int count) throws Exception;
    }

    public static final ObjectMapper JSON = new ObjectMapper();

    public final List<Request> requests = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    public StubServer(Handler handler) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            var thread = new Thread(r);
            thread.setDaemon(true);
            return thread;
        }));
        server.createContext("/", exchange -> handle(exchange, handler));
        server.start();
    }

    private void handle(HttpExchange exchange, Handler handler) throws IOException {
        try (exchange) {
            var request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                    exchange.getRequestURI().getRawQuery(), Map.copyOf(exchange.getRequestHeaders()),
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            requests.add(request);
            Answer answer;
            try {
                answer = handler.answer(request, requests.size());
            } catch (Exception e) {
                answer = Answer.json(500, "{\"error\":{\"code\":50000,\"message\":\"stub: " + e + "\"}}");
            }
            if (answer.delayMillis() > 0) {
                try {
                    Thread.sleep(answer.delayMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            answer.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                exchange.getResponseBody().write(body);
            }
        } catch (IOException e) {
            // the client gave up (a timeout test): nothing to answer
        }
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** A stand-in for invoking agents by name: each name behaves as the SDK's composition tests need. */
    public static Answer agents(Request request) throws Exception {
        String name = request.path().replaceFirst("^/v1/agents/", "").replaceFirst("/invoke$", "");
        JsonNode input = JSON.readTree(request.body());
        var run = switch (name) {
            case "echo" -> ok(input.toString());
            case "upper" -> ok(JSON.createObjectNode().put("text", input.path("text").asText().toUpperCase())
                    .toString());
            case "increment" -> ok(JSON.createObjectNode().put("n", input.path("n").asInt() + 1).toString());
            case "double" -> ok(JSON.createObjectNode().put("n", input.path("n").asInt() * 2).toString());
            case "slow" -> ok(input.toString()).after(1500);
            case "broken" -> ok("{\"error\":\"The agent exited with 1\"}").with("Atrium-Run-Status", "failed");
            case "times-out" -> ok("{\"error\":\"The agent timed out after 30 s\"}")
                    .with("Atrium-Run-Status", "timed_out");
            case "busy" -> Answer.json(503, "{\"error\":{\"code\":50300,\"message\":\"No sandbox slot\"}}")
                    .with("Retry-After", "3600");
            default -> Answer.json(404, "{\"error\":{\"code\":40400,\"message\":\"Agent not found\","
                    + "\"details\":null}}");
        };
        return run.status() == 200 && !run.headers().containsKey("Atrium-Run-Status")
                ? run.with("Atrium-Run-Status", "succeeded") : run;
    }

    private static Answer ok(String body) {
        return Answer.json(200, body).with("Atrium-Run-Id", java.util.UUID.randomUUID().toString())
                .with("Atrium-Agent-Version", "1.0.0").with("Atrium-Duration-Ms", "12")
                .with("Atrium-Tokens-Input", "3").with("Atrium-Tokens-Output", "4")
                .with("Atrium-Price-Usd", "0.010000");
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
