package dev.atrium.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A small HTTP client for the tests. Each instance speaks from its own client address (sent as
 * {@code X-Forwarded-For}, which the test server trusts from loopback), so per-address limits of one test do not
 * reach another.
 */
public final class Api {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5)).version(HttpClient.Version.HTTP_1_1).build();

    private final String base;
    private final Map<String, String> headers;

    private Api(String base, Map<String, String> headers) {
        this.base = base;
        this.headers = Map.copyOf(headers);
    }

    public static Api anonymous() {
        if (AtriumServer.get().sessionMode()) {
            // the session-mode server requires HTTPS: clients come through the (trusted) TLS proxy
            return new Api(AtriumServer.get().baseUrl(), Map.of("X-Forwarded-For", randomAddress(),
                    "X-Forwarded-Proto", "https"));
        }
        return new Api(AtriumServer.get().baseUrl(), Map.of("X-Forwarded-For", randomAddress()));
    }

    /** The same client (headers, token) talking to another instance. */
    public Api at(String otherBase) {
        return new Api(otherBase, headers);
    }

    public Api withToken(String token) {
        return header("Authorization", "Bearer " + token);
    }

    public Api header(String name, String value) {
        var copy = new LinkedHashMap<>(headers);
        copy.put(name, value);
        return new Api(base, copy);
    }

    public Api withoutHeader(String name) {
        var copy = new LinkedHashMap<>(headers);
        copy.remove(name);
        return new Api(base, copy);
    }

    public String address() {
        return headers.get("X-Forwarded-For");
    }

    public Reply get(String path) {
        return send("GET", path, null, null);
    }

    public Reply post(String path, Object body) {
        return send("POST", path, body, "application/json");
    }

    public Reply post(String path) {
        return send("POST", path, null, null);
    }

    public Reply patch(String path, Object body) {
        return send("PATCH", path, body, "application/json");
    }

    public Reply put(String path, Object body) {
        return send("PUT", path, body, "application/json");
    }

    public Reply delete(String path) {
        return send("DELETE", path, null, null);
    }

    public Reply delete(String path, Object body) {
        return send("DELETE", path, body, "application/json");
    }

    public Reply postForm(String path, Map<String, String> form) {
        String encoded = form.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return send("POST", path, encoded, "application/x-www-form-urlencoded");
    }

    /** Any method, body (a String or byte[] is sent as is, anything else as JSON) and content type. */
    public Reply send(String method, String path, Object body, String contentType) {
        var builder = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        headers.forEach(builder::header);
        if (contentType != null) {
            builder.header("Content-Type", contentType);
        }
        builder.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : body instanceof byte[] bytes ? HttpRequest.BodyPublishers.ofByteArray(bytes)
                : HttpRequest.BodyPublishers.ofString(body instanceof String s ? s : json(body)));
        try {
            var response = CLIENT.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static String randomAddress() {
        var r = ThreadLocalRandom.current();
        return "10." + r.nextInt(256) + "." + r.nextInt(256) + "." + (1 + r.nextInt(254));
    }
}
