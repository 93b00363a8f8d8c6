package dev.atrium.ai.control.models;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.platform.ServerResources;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * Any OpenAI-compatible {@code /v1/chat/completions} endpoint, streaming ({@code stream: true}, server-sent chunks
 * until {@code [DONE]}, usage from the final chunk) or not. One shared HTTP client, pooled as spec 02's outbound
 * limits say: at most 100 calls (connections) at once, a call beyond waits up to 30 s and is then refused with 503;
 * at most 20 idle connections kept alive (the JDK client's {@code jdk.httpclient.connectionPoolSize}, a JVM option
 * every launcher passes; said once at start when it is missing); connecting and waiting for the response head time
 * out after 30 s. The API key goes only into the {@code Authorization} header and never into logs or errors. A
 * cancelled stream is closed within about 200 ms even while the provider sends nothing, which drops the connection
 * and ends the generation upstream.
 * <p>
 * Behind a gateway that wants OAuth 2.0 instead of a static key ({@code atrium.llm.token-url} set), the bearer is a
 * client-credentials token ({@link ClientCredentialsTokens}); a 401 from the provider drops it and the call is sent
 * once more with a new one. With both a token URL and an API key configured, the token URL wins (said once at start).
 */
@ApplicationScoped
public class OpenAiProvider implements ModelProvider {

    private static final Logger LOG = Logger.getLogger(OpenAiProvider.class.getName());
    static final Duration TIMEOUT = Duration.ofSeconds(30);
    static final long CANCEL_CHECK_MILLIS = 200;
    static final int MAX_CONNECTIONS = 100;
    static final int KEEP_ALIVE_CONNECTIONS = 20;
    private static final String POOL_SIZE = "jdk.httpclient.connectionPoolSize";

    @Inject
    @ConfigProperties
    AiConfig config;

    @Inject
    Clock clock;

    @Resource(lookup = ServerResources.WORKERS)
    ManagedThreadFactory threads;

    private HttpClient client;
    /** Null when the provider takes the static API key (or nothing). */
    ClientCredentialsTokens tokens;
    private boolean credentialsIncomplete;
    private ScheduledExecutorService cancellations;
    Semaphore connections = new Semaphore(MAX_CONNECTIONS, true);
    Duration connectionWait = TIMEOUT;

    @PostConstruct
    void init() {
        // read by the JDK once, before its first HTTP client, so it can only be a JVM option (scripts/run and the rest)
        if (System.getProperty(POOL_SIZE) == null) {
            LOG.warning(() -> "The JVM has no -D" + POOL_SIZE + ": the JDK keeps every idle connection to the model "
                    + "provider alive; scripts/run passes -D" + POOL_SIZE + "=" + KEEP_ALIVE_CONNECTIONS);
        }
        client = HttpClient.newBuilder().connectTimeout(TIMEOUT).version(HttpClient.Version.HTTP_1_1).build();
        cancellations = Executors.newSingleThreadScheduledExecutor(threads);
        configureTokens();
    }

    private void configureTokens() {
        tokens = null;
        credentialsIncomplete = false;
        Optional<String> url = present(config.llmTokenUrl);
        if (url.isEmpty()) {
            return;
        }
        if (present(config.llmClientId).isEmpty() || present(config.llmClientSecret).isEmpty()) {
            LOG.warning("atrium.llm.token-url is set without atrium.llm.client-id and atrium.llm.client-secret; "
                    + "calls to the model provider are refused");
            credentialsIncomplete = true;
            return;
        }
        URI endpoint;
        try {
            endpoint = URI.create(url.get().trim());
        } catch (IllegalArgumentException e) {
            endpoint = null;
        }
        if (endpoint == null || endpoint.getHost() == null
                || !("https".equalsIgnoreCase(endpoint.getScheme()) || "http".equalsIgnoreCase(endpoint.getScheme()))) {
            LOG.warning("atrium.llm.token-url is not an http(s) URL; calls to the model provider are refused");
            credentialsIncomplete = true;
            return;
        }
        if (present(config.llmApiKey).isPresent()) {
            LOG.warning("Both atrium.llm.api-key and atrium.llm.token-url are set; the client-credentials token is "
                    + "used and the API key ignored");
        }
        tokens = new ClientCredentialsTokens(endpoint, config.llmClientId.get().trim(), config.llmClientSecret.get(),
                present(config.llmScope).orElse(null), clock == null ? Clock.systemUTC() : clock, TIMEOUT);
    }

    private static Optional<String> present(Optional<String> value) {
        return value.filter(v -> !v.isBlank());
    }

    @PreDestroy
    void stop() {
        cancellations.shutdownNow();
    }

    @Override
    public String name() {
        return "openai";
    }

    @Override
    public Completion complete(String upstreamModel, List<ChatTurn> messages) {
        return complete(upstreamModel, messages, null);
    }

    @Override
    public Completion complete(String upstreamModel, List<ChatTurn> messages, Double temperature) {
        HttpResponse<String> response;
        acquireConnection();
        try {
            response = call(bearer -> request(upstreamModel, messages, false, temperature, bearer),
                    HttpResponse.BodyHandlers.ofString());
        } finally {
            connections.release();
        }
        JsonObject body = parse(response.body());
        String content = body.getJsonArray("choices").getJsonObject(0).getJsonObject("message")
                .getString("content", "");
        return new Completion(content, usage(body, messages, content));
    }

    @Override
    public Usage stream(String upstreamModel, List<ChatTurn> messages, Consumer<String> onDelta,
                        BooleanSupplier cancelled) {
        acquireConnection();
        try {
            return streamOnConnection(upstreamModel, messages, onDelta, cancelled);
        } finally {
            connections.release();
        }
    }

    private Usage streamOnConnection(String upstreamModel, List<ChatTurn> messages, Consumer<String> onDelta,
                                     BooleanSupplier cancelled) {
        HttpResponse<InputStream> response = call(bearer -> request(upstreamModel, messages, true, null, bearer),
                HttpResponse.BodyHandlers.ofInputStream());
        var content = new StringBuilder();
        Usage usage = null;
        InputStream body = response.body();
        // a read waits as long as the provider sends nothing, and the HTTP client's stream ignores interrupts:
        // closing it from another thread is what ends such a wait once the caller cancels
        ScheduledFuture<?> watch = cancellations.scheduleWithFixedDelay(() -> {
            if (cancelled.getAsBoolean()) {
                closeQuietly(body);
            }
        }, CANCEL_CHECK_MILLIS, CANCEL_CHECK_MILLIS, TimeUnit.MILLISECONDS);
        try (InputStream in = body;
             var reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (cancelled.getAsBoolean()) {
                    // closing the body aborts the upstream connection, so the provider stops generating
                    break;
                }
                if (!line.startsWith("data:")) {
                    continue;
                }
                String data = line.substring(5).trim();
                if (data.equals("[DONE]")) {
                    break;
                }
                JsonObject chunk = parse(data);
                var choices = chunk.getJsonArray("choices");
                if (choices != null && !choices.isEmpty()) {
                    JsonObject delta = choices.getJsonObject(0).getJsonObject("delta");
                    if (delta != null && delta.get("content") instanceof JsonString text
                            && !text.getString().isEmpty()) {
                        content.append(text.getString());
                        onDelta.accept(text.getString());
                    }
                }
                if (chunk.get("usage") instanceof JsonObject u) {
                    usage = new Usage(u.getInt("prompt_tokens", 0), u.getInt("completion_tokens", 0));
                }
            }
        } catch (IOException e) {
            if (!cancelled.getAsBoolean()) {
                throw upstream("the stream broke off");
            }
        } finally {
            watch.cancel(false);
        }
        return usage != null ? usage : estimate(messages, content.toString());
    }

    /** One of the 100 outbound calls; waits up to 30 s for one to end, then 503. */
    private void acquireConnection() {
        boolean acquired;
        try {
            acquired = connections.tryAcquire(connectionWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            acquired = false;
        }
        if (!acquired) {
            LOG.warning("All outbound connections to the model provider are busy");
            throw new BusinessException(Problem.UNAVAILABLE, "Too many calls to the language model provider at "
                    + "once; try again shortly");
        }
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "Closing a cancelled model stream failed", e);
        }
    }

    private HttpRequest request(String model, List<ChatTurn> messages, boolean stream, Double temperature,
                                Optional<String> bearer) {
        String base = config.llmBaseUrl.filter(s -> !s.isBlank())
                .orElseThrow(() -> new BusinessException(Problem.UNAVAILABLE, "No language model is configured"))
                .replaceAll("/+$", "");
        String url = base.endsWith("/v1") ? base + "/chat/completions" : base + "/v1/chat/completions";
        var turns = JSON.createArrayBuilder();
        messages.forEach(m -> turns.add(JSON.createObjectBuilder().add("role", m.role()).add("content", m.content())));
        var body = JSON.createObjectBuilder().add("model", model).add("messages", turns).add("stream", stream);
        if (temperature != null) {
            body.add("temperature", temperature);
        }
        if (stream) {
            body.add("stream_options", JSON.createObjectBuilder().add("include_usage", true));
        }
        var builder = HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .header("Accept", stream ? "text/event-stream" : "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.build().toString()));
        bearer.ifPresent(k -> builder.header("Authorization", "Bearer " + k));
        return builder.build();
    }

    /**
     * Sends the request built for the current bearer; with client credentials, a 401 drops the token and the request
     * goes once more with a new one (a second 401 is the provider's answer).
     */
    private <T> HttpResponse<T> call(Function<Optional<String>, HttpRequest> build,
                                     HttpResponse.BodyHandler<T> handler) {
        if (credentialsIncomplete) {
            throw new BusinessException(Problem.UNAVAILABLE, "The language model provider's credentials are not "
                    + "configured completely");
        }
        if (tokens == null) {
            return checked(send(build.apply(present(config.llmApiKey)), handler));
        }
        String token = tokens.token();
        HttpResponse<T> response = send(build.apply(Optional.of(token)), handler);
        if (response.statusCode() == 401) {
            discard(response);
            LOG.info("The model provider rejected its access token; fetching a new one");
            tokens.rejected(token);
            response = send(build.apply(Optional.of(tokens.token())), handler);
        }
        return checked(response);
    }

    private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        try {
            return client.send(request, handler);
        } catch (IOException e) {
            LOG.warning(() -> "Model provider unreachable: " + e.getClass().getSimpleName());
            throw upstream("unreachable");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw upstream("interrupted");
        }
    }

    private static void discard(HttpResponse<?> response) {
        if (response.body() instanceof InputStream in) {
            try {
                in.close();
            } catch (IOException ignored) {
                // the status is what matters
            }
        }
    }

    private static <T> HttpResponse<T> checked(HttpResponse<T> response) {
        if (response.statusCode() / 100 != 2) {
            discard(response);
            int status = response.statusCode();
            LOG.warning(() -> "Model provider answered " + status);
            throw upstream("answered " + status);
        }
        return response;
    }

    private static Usage usage(JsonObject body, List<ChatTurn> messages, String content) {
        if (body.get("usage") instanceof JsonObject u) {
            return new Usage(u.getInt("prompt_tokens", 0), u.getInt("completion_tokens", 0));
        }
        return estimate(messages, content);
    }

    private static Usage estimate(List<ChatTurn> messages, String content) {
        return new Usage(messages.stream().mapToInt(m -> Usage.estimate(m.content())).sum(), Usage.estimate(content));
    }

    private static JsonObject parse(String text) {
        try (var reader = JSON.createReader(new StringReader(text))) {
            JsonValue value = reader.readValue();
            if (value instanceof JsonObject o) {
                return o;
            }
        } catch (RuntimeException e) {
            throw upstream("sent something that is not JSON");
        }
        throw upstream("sent something that is not a JSON object");
    }

    private static BusinessException upstream(String what) {
        return new BusinessException(Problem.UPSTREAM, "The language model provider " + what);
    }
}
