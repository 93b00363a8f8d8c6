package dev.atrium.marketplace.control;

import java.util.Collection;
import java.util.List;
import java.util.UUID;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import jakarta.json.Json;
import jakarta.json.JsonString;

import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentCard;

/**
 * This instance's search index of active agents. Built at start ({@link SearchIndexStartup}) and kept current by
 * the {@code marketplace.agents} topic ({@link AgentChangeHandler}); every instance holds its own.
 */
@ApplicationScoped
public class SearchIndex {

    private final AgentIndex index = new AgentIndex(MiniLmEmbedder.DIMENSION);

    public AgentIndex index() {
        return index;
    }

    public void replaceEntries(Collection<AgentIndex.Entry> active) {
        index.replaceAll(active);
    }

    /** Indexes the agent when active with an embedding, removes it otherwise. */
    public void apply(Agent agent) {
        if (agent.isActive() && agent.embedding() != null) {
            index.put(entry(agent));
        } else {
            index.remove(agent.id());
        }
    }

    public void remove(UUID id) {
        index.remove(id);
    }

    static AgentIndex.Entry entry(Agent a) {
        List<String> capabilities = strings(a.capabilitiesJson());
        List<String> tags = strings(a.cardJson(), "tags");
        String text = AgentCard.embeddingText(a.displayName(), a.description(), capabilities, tags, a.category());
        return new AgentIndex.Entry(a.id(), a.category(), capabilities, text, a.embedding());
    }

    private static List<String> strings(String jsonArray) {
        try (var reader = Json.createReader(new java.io.StringReader(jsonArray))) {
            return reader.readArray().stream().map(v -> ((JsonString) v).getString()).toList();
        }
    }

    private static List<String> strings(String jsonObject, String field) {
        try (var reader = Json.createReader(new java.io.StringReader(jsonObject))) {
            var object = reader.readObject();
            return object.containsKey(field)
                    ? object.getJsonArray(field).stream().map(v -> ((JsonString) v).getString()).toList()
                    : List.of();
        }
    }

    @PreDestroy
    void close() {
        index.close();
    }
}
