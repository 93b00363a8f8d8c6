package dev.atrium.platform.http;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.StringReader;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import dev.atrium.platform.kv.KeyValueStore;

/**
 * Results of POST requests by caller and {@code Idempotency-Key}, kept 3600 s. The first request claims the key
 * atomically; a concurrent one waits for the result instead of running again.
 */
@ApplicationScoped
public class IdempotencyStore {

    public static final Duration RETENTION = Duration.ofSeconds(3600);

    /** A finished response and the fingerprint of the request that produced it. */
    public record StoredResponse(String fingerprint, int status, Map<String, String> headers, byte[] body) {
    }

    /** What claiming a key found. */
    public sealed interface Claim {
    }

    public record Acquired() implements Claim {
    }

    public record Finished(StoredResponse response) implements Claim {
    }

    public record Running(String fingerprint) implements Claim {
    }

    @Inject
    KeyValueStore store;

    public Claim claim(String scope, String fingerprint) {
        String running = JSON.createObjectBuilder().add("state", "running").add("fp", fingerprint).build().toString();
        if (store.setIfAbsent(key(scope), running, RETENTION)) {
            return new Acquired();
        }
        return read(scope).<Claim>map(Finished::new)
                .orElseGet(() -> new Running(fingerprintOf(scope).orElse(fingerprint)));
    }

    public void complete(String scope, StoredResponse response) {
        var headers = JSON.createObjectBuilder();
        response.headers().forEach(headers::add);
        String value = JSON.createObjectBuilder()
                .add("state", "done")
                .add("fp", response.fingerprint())
                .add("status", response.status())
                .add("headers", headers)
                .add("body", Base64.getEncoder().encodeToString(response.body()))
                .build().toString();
        store.set(key(scope), value, RETENTION);
    }

    /** Frees the key so the client may retry, after a failure that must not be replayed. */
    public void release(String scope) {
        store.delete(key(scope));
    }

    /** Waits for a concurrent request with the same key to finish; empty when it did not in time. */
    public Optional<StoredResponse> await(String scope, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < deadline) {
            var done = read(scope);
            if (done.isPresent()) {
                return done;
            }
            if (store.get(key(scope)).isEmpty()) {
                return Optional.empty();
            }
            try {
                Thread.sleep(25);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    private Optional<StoredResponse> read(String scope) {
        return store.get(key(scope)).map(IdempotencyStore::parse)
                .filter(o -> "done".equals(o.getString("state", "")))
                .map(o -> {
                    var headers = new LinkedHashMap<String, String>();
                    o.getJsonObject("headers").forEach((k, v) -> headers.put(k, ((JsonString) v).getString()));
                    return new StoredResponse(o.getString("fp"), o.getInt("status"), headers,
                            Base64.getDecoder().decode(o.getString("body")));
                });
    }

    private Optional<String> fingerprintOf(String scope) {
        return store.get(key(scope)).map(IdempotencyStore::parse).map(o -> o.getString("fp", ""));
    }

    private static JsonObject parse(String value) {
        try (var reader = JSON.createReader(new StringReader(value))) {
            return reader.readObject();
        }
    }

    private static String key(String scope) {
        return "idem:" + scope;
    }
}
