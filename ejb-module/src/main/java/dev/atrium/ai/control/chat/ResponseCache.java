package dev.atrium.ai.control.chat;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.ai.control.models.ChatTurn;
import dev.atrium.ai.control.models.Completion;
import dev.atrium.ai.control.models.ModelDefinition;
import dev.atrium.ai.control.models.Usage;
import dev.atrium.platform.kv.KeyValueStore;

/**
 * Spec 02's model response cache: a deterministic request's answer (temperature 0) kept for
 * {@code atrium.ai.response-cache-seconds} (7200 s; 0 turns the cache off) in the shared store, keyed by the model and
 * the SHA-256 of the full prompt (every message the model sees, history included). Any other request always goes to
 * the model: sampling at a higher temperature would give another answer.
 */
@ApplicationScoped
public class ResponseCache {

    @Inject
    KeyValueStore store;

    @Inject
    @ConfigProperties
    AiConfig config;

    public boolean enabled() {
        return config.responseCacheSeconds > 0;
    }

    public Optional<Completion> get(ModelDefinition model, List<ChatTurn> prompt) {
        if (!enabled()) {
            return Optional.empty();
        }
        return store.get(key(model, prompt)).map(ResponseCache::parse)
                .map(o -> new Completion(o.getString("content"), new Usage(o.getInt("input_tokens"),
                        o.getInt("output_tokens"))));
    }

    public void put(ModelDefinition model, List<ChatTurn> prompt, Completion completion) {
        if (enabled()) {
            store.set(key(model, prompt), JSON.createObjectBuilder().add("content", completion.content())
                    .add("input_tokens", completion.usage().inputTokens())
                    .add("output_tokens", completion.usage().outputTokens()).build().toString(),
                    Duration.ofSeconds(config.responseCacheSeconds));
        }
    }

    static String key(ModelDefinition model, List<ChatTurn> prompt) {
        var messages = JSON.createArrayBuilder();
        prompt.forEach(t -> messages.add(JSON.createArrayBuilder().add(t.role()).add(t.content())));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(JSON.createArrayBuilder().add(model.id())
                    .add(messages).build().toString().getBytes(StandardCharsets.UTF_8));
            return "response:" + model.id() + ":" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
    }

    private static JsonObject parse(String value) {
        try (var reader = JSON.createReader(new StringReader(value))) {
            return reader.readObject();
        }
    }
}
