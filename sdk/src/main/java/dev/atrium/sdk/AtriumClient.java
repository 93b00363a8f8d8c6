package dev.atrium.sdk;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A client of an Atrium server's marketplace: search, recommendation and invocation of agents, each also as a
 * {@link CompletableFuture}. Thread-safe; build one and share it.
 * <pre>{@code
 * var atrium = AtriumClient.builder("http://localhost:8080", System.getenv("ATRIUM_API_KEY")).build();
 * var run = atrium.invoke("summarizer", Map.of("text", "A long text"));
 * }</pre>
 * Each request waits at most the client's timeout (30 s unless {@link Builder#timeout} says otherwise). An answer of
 * 429 or 503 is retried, after the server's {@code Retry-After} or else a doubling backoff (0.5 s, 1 s, 2 s, …), up to
 * {@link Builder#maxRetries} times (3); a wait the server asks for beyond {@value #MAX_WAIT_SECONDS} s is not made.
 * No other error is retried: an invocation that reached the agent is never sent twice. Errors are
 * {@link AtriumException}s carrying the HTTP status and the server's error envelope.
 */
public final class AtriumClient {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    public static final int DEFAULT_MAX_RETRIES = 3;
    static final long MAX_WAIT_SECONDS = 60;
    static final Duration FIRST_BACKOFF = Duration.ofMillis(500);
    private static final int MAX_ERROR_TEXT = 300;

    /** How the client waits before a retry; the tests' stand-in records the waits instead. */
    interface Delays {
        CompletableFuture<Void> after(Duration wait);

        Delays REAL = wait -> CompletableFuture.runAsync(() -> {
        }, CompletableFuture.delayedExecutor(wait.toMillis(), TimeUnit.MILLISECONDS));
    }

    private final URI base;
    private final String apiKey;
    private final Duration timeout;
    private final int maxRetries;
    private final HttpClient http;
    private final Delays delays;
    private final Clock clock;
    private final ObjectMapper json = new ObjectMapper();

    private AtriumClient(Builder builder) {
        this.base = builder.base;
        this.apiKey = builder.apiKey;
        this.timeout = builder.timeout;
        this.maxRetries = builder.maxRetries;
        this.delays = builder.delays;
        this.clock = builder.clock;
        this.http = builder.http != null ? builder.http : HttpClient.newBuilder()
                .connectTimeout(builder.timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /**
     * A builder for a server at {@code baseUrl} (for example {@code https://atrium.example.com}) calling with the
     * API key {@code apiKey} ({@code sk-…}; null to call anonymously, which search and recommendation allow).
     */
    public static Builder builder(String baseUrl, String apiKey) {
        return new Builder(baseUrl, apiKey);
    }

    /** How the client is made; every setting has a default. */
    public static final class Builder {

        private final URI base;
        private final String apiKey;
        private Duration timeout = DEFAULT_TIMEOUT;
        private int maxRetries = DEFAULT_MAX_RETRIES;
        private HttpClient http;
        private Delays delays = Delays.REAL;
        private Clock clock = Clock.systemUTC();

        private Builder(String baseUrl, String apiKey) {
            Objects.requireNonNull(baseUrl, "baseUrl");
            URI uri;
            try {
                uri = URI.create(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Not a URL: " + baseUrl, e);
            }
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new IllegalArgumentException("The base URL must be http(s)://host[:port][/path]: " + baseUrl);
            }
            if (apiKey != null && (apiKey.isBlank() || apiKey.chars().anyMatch(c -> c < 0x21 || c > 0x7e))) {
                throw new IllegalArgumentException("The API key must be printable ASCII without spaces");
            }
            this.base = uri;
            this.apiKey = apiKey;
        }

        /** How long one request may take before {@link AtriumException.Timeout}; 30 s by default. */
        public Builder timeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("The timeout must be positive");
            }
            this.timeout = timeout;
            return this;
        }

        /** How many times a 429 or 503 is retried; 3 by default, 0 for never. */
        public Builder maxRetries(int maxRetries) {
            if (maxRetries < 0 || maxRetries > 10) {
                throw new IllegalArgumentException("maxRetries must be 0 to 10");
            }
            this.maxRetries = maxRetries;
            return this;
        }

        /** The JDK client to send with (its proxy, TLS or executor settings); one is made otherwise. */
        public Builder httpClient(HttpClient http) {
            this.http = Objects.requireNonNull(http, "http");
            return this;
        }

        Builder delays(Delays delays) {
            this.delays = delays;
            return this;
        }

        Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        public AtriumClient build() {
            return new AtriumClient(this);
        }
    }

    /** Active agents for a natural-language query, nearest first; {@code category} filters (null for any). */
    public SearchResult search(String query, String category, int limit) {
        return join(searchAsync(query, category, limit));
    }

    public CompletableFuture<SearchResult> searchAsync(String query, String category, int limit) {
        if (query == null || query.isBlank()) {
            throw new IllegalArgumentException("The query must not be blank");
        }
        if (limit < 1) {
            throw new IllegalArgumentException("The limit must be at least 1");
        }
        String path = "v1/agents/search?q=" + encode(query) + "&limit=" + limit
                + (category == null ? "" : "&category=" + encode(category));
        return send(request(path).GET()).thenApply(response -> {
            JsonNode body = readBody(response);
            return new SearchResult(hits(body.path("agents")), body.path("total").asLong());
        });
    }

    /** Agents for a task described in words: the server's reading of the task and the agents, nearest first. */
    public Recommendation recommend(String task, int topK) {
        return join(recommendAsync(task, topK));
    }

    public CompletableFuture<Recommendation> recommendAsync(String task, int topK) {
        if (task == null || task.isBlank()) {
            throw new IllegalArgumentException("The task must not be blank");
        }
        if (topK < 1) {
            throw new IllegalArgumentException("topK must be at least 1");
        }
        var body = json.createObjectNode().put("task", task).put("top_k", topK);
        return send(request("v1/recommendations").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes(body)))).thenApply(response -> {
            JsonNode answer = readBody(response);
            var capabilities = new ArrayList<String>();
            answer.path("analysis").path("required_capabilities").forEach(c -> capabilities.add(c.asText()));
            JsonNode category = answer.path("analysis").path("category");
            return new Recommendation(capabilities, category.isTextual() ? category.asText() : null,
                    hits(answer.path("agents")), answer.path("total").asLong());
        });
    }

    /**
     * Invokes the agent (its id or name) with {@code input} (a {@code JsonNode}, a map, a record or anything
     * Jackson writes as a JSON object). Answers the run, also when it did not succeed (see
     * {@link Invocation#succeeded()}); throws when the server refused the call.
     */
    public Invocation invoke(String agent, Object input) {
        return join(invokeAsync(agent, input));
    }

    public CompletableFuture<Invocation> invokeAsync(String agent, Object input) {
        if (agent == null || agent.isBlank()) {
            throw new IllegalArgumentException("The agent must be named");
        }
        JsonNode body = input instanceof JsonNode node ? node : json.valueToTree(input);
        if (body == null || !body.isObject()) {
            throw new IllegalArgumentException("An agent's input is a JSON object");
        }
        return send(request("v1/agents/" + encode(agent) + "/invoke").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes(body)))).thenApply(response -> {
            var headers = response.headers();
            return new Invocation(agent, readBody(response), headers.firstValue("Atrium-Run-Id").orElse(null),
                    headers.firstValue("Atrium-Agent-Version").orElse(null),
                    headers.firstValue("Atrium-Run-Status").orElse("succeeded"),
                    number(headers.firstValue("Atrium-Duration-Ms")),
                    number(headers.firstValue("Atrium-Tokens-Input")),
                    number(headers.firstValue("Atrium-Tokens-Output")),
                    headers.firstValue("Atrium-Price-Usd").flatMap(AtriumClient::decimal).orElse(BigDecimal.ZERO));
        });
    }

    /**
     * Installs a listed agent (its id) for the key's user and answers the installation ({@code id}, {@code agent_id},
     * {@code installed_at}): a new one, or the one already there, since installing is idempotent.
     */
    public JsonNode install(String agentId) {
        return join(installAsync(agentId));
    }

    public CompletableFuture<JsonNode> installAsync(String agentId) {
        return send(request(installations(agentId)).POST(HttpRequest.BodyPublishers.noBody()))
                .thenApply(this::readBody);
    }

    /** Uninstalls the agent (its id); {@link AtriumException.NotFound} when the user has not installed it. */
    public void uninstall(String agentId) {
        join(send(request(installations(agentId)).DELETE()));
    }

    private static String installations(String agentId) {
        if (agentId == null || agentId.isBlank()) {
            throw new IllegalArgumentException("The agent must be named");
        }
        return "v1/agents/" + encode(agentId) + "/installations";
    }

    /**
     * Any other GET of the API, answered as JSON: {@code pathAndQuery} is relative to the base URL (for example
     * {@code v1/me/revenue?month=2026-10}); errors as for the other calls. A URL of another host is refused, so the
     * API key never leaves for it.
     */
    public JsonNode get(String pathAndQuery) {
        return join(getAsync(pathAndQuery));
    }

    public CompletableFuture<JsonNode> getAsync(String pathAndQuery) {
        String path = pathAndQuery == null ? "" : pathAndQuery.replaceFirst("^/(?!/)", "");
        URI relative;
        try {
            relative = URI.create(path);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Not a path of the API: " + pathAndQuery, e);
        }
        if (path.isEmpty() || relative.isAbsolute() || path.startsWith("/") || relative.getRawAuthority() != null) {
            throw new IllegalArgumentException("Not a path of the API: " + pathAndQuery);
        }
        return send(request(path).GET()).thenApply(this::readBody);
    }

    ObjectMapper json() {
        return json;
    }

    private HttpRequest.Builder request(String path) {
        var builder = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout)
                .header("Accept", "application/json").header("User-Agent", "atrium-sdk-java/1");
        if (apiKey != null) {
            builder.header("Authorization", "Bearer " + apiKey);
        }
        return builder;
    }

    private CompletableFuture<HttpResponse<byte[]>> send(HttpRequest.Builder request) {
        return attempt(request.build(), 0).thenApply(response -> {
            if (response.statusCode() / 100 != 2) {
                throw error(response);
            }
            return response;
        });
    }

    private CompletableFuture<HttpResponse<byte[]>> attempt(HttpRequest request, int retried) {
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).handle((response, failure) -> {
            if (failure != null) {
                return CompletableFuture.<HttpResponse<byte[]>>failedFuture(transport(failure));
            }
            int status = response.statusCode();
            if ((status == 429 || status == 503) && retried < maxRetries) {
                Duration wait = RetryAfter.parse(response.headers().firstValue("Retry-After").orElse(null),
                        clock.instant()).orElse(FIRST_BACKOFF.multipliedBy(1L << retried));
                if (wait.getSeconds() <= MAX_WAIT_SECONDS) {
                    return delays.after(wait).thenCompose(done -> attempt(request, retried + 1));
                }
            }
            return CompletableFuture.completedFuture(response);
        }).thenCompose(next -> next);
    }

    private static AtriumException transport(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (cause instanceof HttpTimeoutException || cause instanceof TimeoutException) {
            return new AtriumException.Timeout("No answer within the client's timeout", cause);
        }
        if (cause instanceof AtriumException atrium) {
            return atrium;
        }
        return new AtriumException.Transport("The server could not be reached: " + cause.getClass().getSimpleName()
                + (cause.getMessage() == null ? "" : " " + cause.getMessage()), cause);
    }

    /** The error envelope of a refused call, or the status alone when the answer carries none. */
    AtriumException error(HttpResponse<byte[]> response) {
        int status = response.statusCode();
        int code = 0;
        String message = "HTTP " + status;
        String details = null;
        try {
            JsonNode error = json.readTree(response.body()).path("error");
            if (error.isObject()) {
                code = error.path("code").canConvertToInt() ? error.path("code").asInt() : 0;
                message = error.path("message").isTextual() ? cut(error.get("message").asText()) : message;
                JsonNode found = error.path("details");
                details = found.isMissingNode() || found.isNull() ? null
                        : cut(found.isTextual() ? found.asText() : found.toString());
            } else if (error.isTextual()) {
                message = cut(error.asText());
            }
        } catch (IOException | RuntimeException notJson) {
            // a proxy's HTML page or an empty body: the status is all there is to say
        }
        return switch (status) {
            case 400, 422 -> new AtriumException.InvalidRequest(status, code, message, details);
            case 401, 403 -> new AtriumException.Unauthorized(status, code, message, details);
            case 402 -> new AtriumException.PaymentRequired(status, code, message, details);
            case 404 -> new AtriumException.NotFound(status, code, message, details);
            case 429, 503 -> new AtriumException.Unavailable(status, code, message, details);
            default -> new AtriumException(status, code, message, details);
        };
    }

    private JsonNode readBody(HttpResponse<byte[]> response) {
        try {
            JsonNode body = json.readTree(response.body());
            if (body == null || body.isMissingNode()) {
                throw new AtriumException.Transport("The server's answer was empty", null);
            }
            return body;
        } catch (IOException e) {
            throw new AtriumException.Transport("The server's answer is not JSON", e);
        }
    }

    private List<AgentHit> hits(JsonNode agents) {
        var hits = new ArrayList<AgentHit>();
        for (JsonNode a : agents) {
            hits.add(new AgentHit(a.path("id").asText(null), a.path("name").asText(null),
                    a.path("display_name").asText(null), a.path("description").asText(null),
                    a.path("quality_score").asDouble(), a.path("downloads").asLong(), a.path("distance").asDouble()));
        }
        return hits;
    }

    private byte[] bytes(JsonNode node) {
        try {
            return json.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new IllegalArgumentException("The input cannot be written as JSON", e);
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String cut(String text) {
        return text.length() <= MAX_ERROR_TEXT ? text : text.substring(0, MAX_ERROR_TEXT) + "…";
    }

    private static long number(Optional<String> header) {
        try {
            return header.map(Long::parseLong).orElse(0L);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static Optional<BigDecimal> decimal(String text) {
        try {
            return Optional.of(new BigDecimal(text));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The future's value; its failure rethrown as the {@link AtriumException} it is. */
    static <T> T join(CompletableFuture<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AtriumException.Transport("Interrupted while waiting for the server", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof CompletionException c && c.getCause() != null
                    ? c.getCause() : e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw transport(cause);
        }
    }
}
