package dev.atrium.ai.control.chat;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.ai.control.models.ChatTurn;
import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.persistence.AfterCommit;

/**
 * Spec 02's conversation message cache: the messages a model sees of a conversation (its last
 * {@value ConversationStore#CONTEXT_MESSAGES}) kept in the shared store for {@code atrium.ai.conversation-cache-seconds}
 * (3600 s from the last change; 0 turns it off), so a chat turn reads its history without a query. It is written
 * only once the transaction that stored the messages has committed, and dropped when the conversation is deleted; a
 * store that cannot be reached only means the history is read from the database.
 */
@ApplicationScoped
public class ConversationCache {

    private static final Logger LOG = Logger.getLogger(ConversationCache.class.getName());

    @Inject
    KeyValueStore store;

    @Inject
    @ConfigProperties
    AiConfig config;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;

    public Optional<List<ChatTurn>> get(UUID conversationId) {
        if (config.conversationCacheSeconds <= 0) {
            return Optional.empty();
        }
        try {
            return store.get(key(conversationId)).map(ConversationCache::turns);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Conversation cache unavailable", e);
            return Optional.empty();
        }
    }

    /** Caches the conversation's messages (the last ones kept) once the current transaction commits. */
    public void putAfterCommit(UUID conversationId, List<ChatTurn> turns) {
        if (config.conversationCacheSeconds <= 0) {
            return;
        }
        var kept = turns.subList(Math.max(0, turns.size() - ConversationStore.CONTEXT_MESSAGES), turns.size());
        var array = JSON.createArrayBuilder();
        kept.forEach(t -> array.add(JSON.createObjectBuilder().add("role", t.role()).add("content", t.content())));
        String value = array.build().toString();
        afterCommit(() -> store.set(key(conversationId), value, Duration.ofSeconds(config.conversationCacheSeconds)));
    }

    public void removeAfterCommit(UUID conversationId) {
        afterCommit(() -> store.delete(key(conversationId)));
    }

    private void afterCommit(Runnable write) {
        Runnable safe = () -> {
            try {
                write.run();
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "Conversation cache unavailable", e);
            }
        };
        AfterCommit.run(transactions, safe);
    }

    private static List<ChatTurn> turns(String value) {
        try (var reader = JSON.createReader(new StringReader(value))) {
            JsonArray array = reader.readArray();
            var turns = new ArrayList<ChatTurn>();
            for (JsonObject o : array.getValuesAs(JsonObject.class)) {
                turns.add(new ChatTurn(o.getString("role"), o.getString("content")));
            }
            return turns;
        }
    }

    static String key(UUID conversationId) {
        return "conversation:" + conversationId + ":messages";
    }
}
