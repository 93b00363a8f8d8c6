package dev.atrium.marketplace.control;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import jakarta.json.Json;
import jakarta.json.JsonString;

import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentVersion;
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

    /**
     * Indexes the agent when it is active and the version serving it has an embedding, removes it otherwise.
     * {@code serving} is the agent's current version, or null.
     */
    public void apply(Agent agent, AgentVersion serving) {
        var entry = entry(agent, serving);
        if (entry.isPresent()) {
            index.put(entry.get());
        } else {
            index.remove(agent.id());
        }
    }

    public void remove(UUID id) {
        index.remove(id);
    }

    /**
     * The index entry of an active agent served by a version with an embedding; empty otherwise. The text comes from
     * the agent's listing fields, which are those of its current version.
     */
    static Optional<AgentIndex.Entry> entry(Agent a, AgentVersion serving) {
        if (!a.isActive() || serving == null || !serving.id().equals(a.currentVersionId())
                || serving.embedding() == null) {
            return Optional.empty();
        }
        return Optional.of(new AgentIndex.Entry(a.id(), a.category(), capabilities(a), text(a), serving.embedding()));
    }

    /** The text whose embedding stands for the agent's current version. */
    static String text(Agent a) {
        return AgentCard.embeddingText(a.displayName(), a.description(), capabilities(a), strings(a.cardJson(), "tags"),
                a.category());
    }

    private static List<String> capabilities(Agent a) {
        return strings(a.capabilitiesJson());
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
