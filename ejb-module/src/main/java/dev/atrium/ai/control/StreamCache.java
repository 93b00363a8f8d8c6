package dev.atrium.ai.control;

import java.io.StringReader;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.platform.kv.KeyValueStore;

/**
 * Streamed answers kept for resuming ({@code atrium.ai.stream-cache-seconds}, default 3600 s), in the shared store so
 * a client may resume on any instance. Only the user who asked may read it back.
 */
@ApplicationScoped
public class StreamCache {

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperty(name = "atrium.ai.stream-cache-seconds", defaultValue = "3600")
    long seconds;

    public void put(UUID messageId, long userId, String content) {
        store.set(key(messageId), Json.createObjectBuilder().add("user_id", userId).add("content", content)
                .add("created_at", clock.instant().toString()).build().toString(), Duration.ofSeconds(seconds));
    }

    public Optional<String> get(UUID messageId, long userId) {
        return store.get(key(messageId)).map(v -> Json.createReader(new StringReader(v)).readObject())
                .filter(o -> o.getJsonNumber("user_id").longValue() == userId)
                .filter(o -> clock.instant().isBefore(Instant.parse(o.getString("created_at")).plusSeconds(seconds)))
                .map(o -> o.getString("content"));
    }

    private static String key(UUID messageId) {
        return "stream:" + messageId;
    }
}
