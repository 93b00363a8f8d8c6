package dev.atrium.marketplace.control.search;

import java.io.InputStream;
import java.util.List;
import java.util.UUID;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import dev.atrium.marketplace.entity.AgentCard;
import dev.atrium.marketplace.entity.Capability;

/** The fixture catalog of agents with realistic descriptions and the queries whose best agent is known. */
record RelevanceCatalog(List<Agent> agents, List<Query> queries) {

    record Agent(UUID id, String name, String category, List<String> capabilities, String text) {
    }

    record Query(String q, String expected) {
    }

    static RelevanceCatalog load() {
        try (InputStream in = RelevanceCatalog.class.getResourceAsStream("/marketplace/relevance-catalog.json");
             var reader = Json.createReader(in)) {
            JsonObject root = reader.readObject();
            var agents = root.getJsonArray("agents").stream().map(v -> {
                JsonObject a = v.asJsonObject();
                List<String> capabilities = strings(a, "capabilities");
                String text = AgentCard.embeddingText(a.getString("display_name"), a.getString("description"),
                        capabilities.stream().map(Capability::named).toList(), strings(a, "tags"),
                        a.getString("category"));
                return new Agent(UUID.nameUUIDFromBytes(a.getString("name").getBytes()), a.getString("name"),
                        a.getString("category"), capabilities, text);
            }).toList();
            var queries = root.getJsonArray("queries").stream().map(v -> new Query(
                    v.asJsonObject().getString("q"), v.asJsonObject().getString("expected"))).toList();
            return new RelevanceCatalog(agents, queries);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    AgentIndex index(TextEmbedder embedder) {
        var index = new AgentIndex(embedder.dimension());
        index.replaceAll(agents.stream().map(a -> new AgentIndex.Entry(a.id(), a.category(), a.capabilities(),
                a.text(), embedder.embed(a.text()))).toList());
        return index;
    }

    /** Each agent's capabilities, each embedded once by its words, as the search index holds them. */
    CapabilityIndex capabilities(TextEmbedder embedder) {
        var index = new CapabilityIndex(embedder.dimension());
        var vectors = new java.util.HashMap<String, float[]>();
        index.replaceAll(agents.stream().map(a -> {
            var mine = new java.util.LinkedHashMap<String, float[]>();
            a.capabilities().forEach(c -> mine.put(c, vectors.computeIfAbsent(c,
                    x -> embedder.embed(AgentCard.words(x)))));
            return new CapabilityIndex.Holding(a.id(), a.category(), mine);
        }).toList());
        return index;
    }

    String nameOf(UUID id) {
        return agents.stream().filter(a -> a.id().equals(id)).findFirst().orElseThrow().name();
    }

    private static List<String> strings(JsonObject o, String field) {
        return o.getJsonArray(field).stream().map(v -> ((JsonString) v).getString()).toList();
    }
}
