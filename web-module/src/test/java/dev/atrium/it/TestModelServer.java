package dev.atrium.it;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An OpenAI-compatible model server in the test JVM ({@code POST /v1/chat/completions}, streamed as server-sent
 * chunks with the usage in the last one), so that the server under test has models that fail, dawdle or hang on
 * demand. The test server lists {@code echo} first (the default model, as without a language model), then
 * {@value #SCRIPTED} for every tier and {@value #PREMIUM} for pro and enterprise only. What a call does is read from
 * the start of its last user message:
 * <ul>
 *   <li>{@code fail N: ...} answers 500 to the first N calls with this exact prompt, then answers normally;</li>
 *   <li>{@code slow MS: ...} streams one word every MS milliseconds;</li>
 *   <li>{@code silent: ...} streams the first word, then sends nothing for a minute;</li>
 *   <li>{@code late: ...} sends nothing at all, not even the response head, for a minute;</li>
 *   <li>anything else is answered at once: {@code "Scripted: "} and the prompt, word by word.</li>
 * </ul>
 */
public final class TestModelServer {

    public static final String SCRIPTED = "scripted";
    public static final String PREMIUM = "premium";

    private static final Pattern FAIL = Pattern.compile("^fail (\\d+):");
    private static final Pattern SLOW = Pattern.compile("^slow (\\d+):");
    private static final long HANG_MILLIS = 60_000;
    private static final Map<String, AtomicInteger> CALLS = new ConcurrentHashMap<>();
    private static final Map<String, Integer> MESSAGES = new ConcurrentHashMap<>();
    private static HttpServer server;
    /** When set, every call must carry a bearer signed with these keys for {@link #tokenClient}, as a gateway would. */
    private static volatile JWKSet tokenKeys;
    private static volatile String tokenClient;
    private static final Set<String> REVOKED = ConcurrentHashMap.newKeySet();
    private static final List<String> BEARERS = new CopyOnWriteArrayList<>();

    private TestModelServer() {
    }

    /** Starts the server once per test JVM and returns the configuration that points the server under test at it. */
    public static synchronized Map<String, String> environment() {
        if (server == null) {
            try {
                server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.createContext("/v1/chat/completions", TestModelServer::handle);
            // each call on a thread of its own: some of them hang on purpose
            server.setExecutor(Executors.newCachedThreadPool(r -> {
                var thread = new Thread(r, "test-model-server");
                thread.setDaemon(true);
                return thread;
            }));
            server.start();
        }
        return Map.of(
                "ATRIUM_LLM_BASE_URL", "http://127.0.0.1:" + server.getAddress().getPort() + "/v1",
                "ATRIUM_AI_MODELS", "echo," + SCRIPTED + "," + PREMIUM,
                "ATRIUM_AI_MODEL_SCRIPTED_TIERS", "free,pro,enterprise",
                "ATRIUM_AI_MODEL_PREMIUM_TIERS", "pro,enterprise");
    }

    /**
     * From now on the server answers 401 to a call without a bearer token issued (signed with the key set at
     * {@code jwks}) to this OAuth 2.0 client, or with a revoked one.
     */
    public static void requireTokens(URI jwks, String clientId) {
        try {
            var response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(jwks).build(),
                    HttpResponse.BodyHandlers.ofString());
            tokenKeys = JWKSet.parse(response.body());
        } catch (IOException | java.text.ParseException e) {
            throw new IllegalStateException("The OAuth server's key set cannot be read", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        tokenClient = clientId;
    }

    /** The bearer tokens calls carried so far, in order (accepted or not). */
    public static List<String> bearers() {
        return List.copyOf(BEARERS);
    }

    /** The gateway stops accepting this token although it has not expired (as after a key rotation). */
    public static void revoke(String token) {
        REVOKED.add(token);
    }

    private static boolean authorized(HttpExchange exchange) {
        JWKSet keys = tokenKeys;
        if (keys == null) {
            return true;
        }
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        String bearer = authorization != null && authorization.startsWith("Bearer ") ? authorization.substring(7) : "";
        BEARERS.add(bearer);
        if (REVOKED.contains(bearer)) {
            return false;
        }
        try {
            var jwt = SignedJWT.parse(bearer);
            var key = (RSAKey) keys.getKeyByKeyId(jwt.getHeader().getKeyID());
            return key != null && jwt.verify(new RSASSAVerifier(key))
                    && tokenClient.equals(jwt.getJWTClaimsSet().getSubject());
        } catch (Exception e) {
            return false;
        }
    }

    /** How many messages (history and prompt) the last call with this prompt sent; 0 when none came. */
    public static int messagesSeen(String prompt) {
        return MESSAGES.getOrDefault(prompt, 0);
    }

    /** How many calls carried this prompt so far. */
    public static int calls(String prompt) {
        var count = CALLS.get(prompt);
        return count == null ? 0 : count.get();
    }

    private static void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!authorized(exchange)) {
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            JsonNode request = Api.JSON.readTree(exchange.getRequestBody());
            String prompt = lastUserMessage(request);
            int call = CALLS.computeIfAbsent(prompt, p -> new AtomicInteger()).incrementAndGet();
            MESSAGES.put(prompt, request.path("messages").size());
            Matcher fail = FAIL.matcher(prompt);
            if (fail.find() && call <= Integer.parseInt(fail.group(1))) {
                byte[] body = "{\"error\":{\"message\":\"scripted failure\",\"type\":\"server_error\"}}"
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(500, body.length);
                exchange.getResponseBody().write(body);
                return;
            }
            if (prompt.startsWith("late:")) {
                pause(HANG_MILLIS);
                return;
            }
            Matcher slow = SLOW.matcher(prompt);
            long delay = slow.find() ? Long.parseLong(slow.group(1)) : 0;
            if (!request.path("stream").asBoolean(false)) {
                answer(exchange, request.path("model").asText(), prompt);
                return;
            }
            stream(exchange, request.path("model").asText(), prompt, delay, prompt.startsWith("silent:"));
        } catch (IOException e) {
            // the client went away, as a cancelled stream does
        }
    }

    private static void stream(HttpExchange exchange, String model, String prompt, long delay, boolean silent)
            throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        List<String> words = words("Scripted: " + prompt);
        for (int i = 0; i < words.size(); i++) {
            ObjectNode chunk = chunk(model);
            chunk.putArray("choices").addObject().put("index", 0).putObject("delta").put("content", words.get(i));
            send(out, chunk.toString());
            if (silent) {
                pause(HANG_MILLIS);
                return;
            }
            if (delay > 0) {
                pause(delay);
            }
        }
        ObjectNode last = chunk(model);
        last.putArray("choices");
        int input = words(prompt).size();
        last.putObject("usage").put("prompt_tokens", input).put("completion_tokens", words.size())
                .put("total_tokens", input + words.size());
        send(out, last.toString());
        send(out, "[DONE]");
    }

    /** A whole answer ({@code stream: false}), with the same text and usage as the stream. */
    private static void answer(HttpExchange exchange, String model, String prompt) throws IOException {
        ObjectNode body = Api.JSON.createObjectNode().put("id", "chatcmpl-test").put("object", "chat.completion")
                .put("model", model);
        String content = "Scripted: " + prompt;
        body.putArray("choices").addObject().put("index", 0).put("finish_reason", "stop").putObject("message")
                .put("role", "assistant").put("content", content);
        int input = words(prompt).size();
        body.putObject("usage").put("prompt_tokens", input).put("completion_tokens", words(content).size())
                .put("total_tokens", input + words(content).size());
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private static ObjectNode chunk(String model) {
        return Api.JSON.createObjectNode().put("id", "chatcmpl-test").put("object", "chat.completion.chunk")
                .put("model", model);
    }

    private static void send(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** The words of a text with the space after each, as a model streams them. */
    static List<String> words(String text) {
        var words = new ArrayList<String>();
        for (String word : text.split("(?<= )")) {
            if (!word.isEmpty()) {
                words.add(word);
            }
        }
        return words;
    }

    private static String lastUserMessage(JsonNode request) {
        String last = "";
        for (JsonNode message : request.path("messages")) {
            if ("user".equals(message.path("role").asText())) {
                last = message.path("content").asText();
            }
        }
        return last;
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
