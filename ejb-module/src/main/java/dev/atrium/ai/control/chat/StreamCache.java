package dev.atrium.ai.control.chat;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.StringReader;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.platform.kv.KeyValueStore;

/**
 * Streamed answers kept for resuming ({@code atrium.ai.stream-cache-seconds}, default 3600 s from the start of the
 * answer), in the shared store so a client may resume on any instance, even while the answer is still being
 * generated on another one. The entry is written with the first fragment and again after every fragment, before
 * the fragment is passed on, so what a client has seen is always cached; {@code done} is set once the whole answer
 * has been saved. Only the user who asked may read it back.
 */
@ApplicationScoped
public class StreamCache {

    /** What is cached of an answer so far, and whether it is complete. */
    public record Cached(String content, boolean done) {
    }

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperties
    AiConfig config;

    /** One answer's entry, written by the thread that generates it. */
    public final class Entry {
        private final UUID messageId;
        private final long userId;
        private final Instant created;

        private Entry(UUID messageId, long userId, Instant created) {
            this.messageId = messageId;
            this.userId = userId;
            this.created = created;
        }

        /** Replaces the cached text with the answer so far; {@code done} once the whole answer is saved. */
        public void update(String content, boolean done) {
            write(messageId, userId, content, done, created);
        }
    }

    /**
     * The entry of an answer about to be generated, kept from now for the cache's lifetime. Nothing is written until
     * its first {@link Entry#update}, which every caller makes at once with the first fragment (or the whole answer):
     * an empty entry before it would cost the first token a round trip to the store and show a resume nothing more.
     */
    public Entry open(UUID messageId, long userId) {
        return new Entry(messageId, userId, clock.instant());
    }

    /** The cached answer, for its user only, while it is kept. */
    public Optional<Cached> read(UUID messageId, long userId) {
        return store.get(key(messageId)).map(StreamCache::parse)
                .filter(o -> o.getJsonNumber("user_id").longValue() == userId)
                .filter(o -> clock.instant().isBefore(Instant.parse(o.getString("created_at"))
                        .plusSeconds(config.streamCacheSeconds)))
                .map(o -> new Cached(o.getString("content"), o.getBoolean("done", true)));
    }

    private void write(UUID messageId, long userId, String content, boolean done, Instant created) {
        long left = Math.max(1, config.streamCacheSeconds - Duration.between(created, clock.instant()).toSeconds());
        store.set(key(messageId), JSON.createObjectBuilder().add("user_id", userId).add("content", content)
                .add("done", done).add("created_at", created.toString()).build().toString(),
                Duration.ofSeconds(left));
    }

    private static JsonObject parse(String value) {
        try (var reader = JSON.createReader(new StringReader(value))) {
            return reader.readObject();
        }
    }

    private static String key(UUID messageId) {
        return "stream:" + messageId;
    }
}
