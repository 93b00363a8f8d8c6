package dev.atrium.marketplace.control.search;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.StringReader;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import jakarta.json.JsonString;

import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentCard;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.Capability;

/**
 * This instance's search index of active agents. Built at start ({@link SearchIndexStartup}), kept current by the
 * {@code marketplace.agents} topic ({@link AgentChangeHandler}) once built (changes arriving earlier wait for the
 * build), and reconciled with the database at start and every few minutes ({@link SearchReconciler}), so that a
 * change whose message was missed is still found. Every instance holds its own.
 */
@ApplicationScoped
public class SearchIndex {

    private final AgentIndex index = new AgentIndex(MiniLmEmbedder.DIMENSION);
    private final CapabilityIndex capabilities = new CapabilityIndex(MiniLmEmbedder.DIMENSION);

    @Inject
    Embeddings embeddings;

    /** What an indexed agent was indexed from: its serving version and the agent's last change (to the ms). */
    public record Stamp(UUID versionId, Instant updatedAt) {

        public Stamp {
            updatedAt = updatedAt.truncatedTo(ChronoUnit.MILLIS);
        }
    }

    /** What a reconciliation must do: agents to index again (missing or stale), and agents to drop. */
    public record Diff(Set<UUID> apply, Set<UUID> remove) {

        public boolean empty() {
            return apply.isEmpty() && remove.isEmpty();
        }
    }

    private final Map<UUID, Stamp> stamps = new ConcurrentHashMap<>();
    private final Set<UUID> deferred = ConcurrentHashMap.newKeySet();
    private volatile boolean built;

    public AgentIndex index() {
        return index;
    }

    /** The capabilities of the indexed agents, each embedded once: what a task is analysed against. */
    public CapabilityIndex capabilities() {
        return capabilities;
    }

    /** The content built at start, with what each entry was built from and the capabilities of each. */
    public void replaceEntries(Collection<AgentIndex.Entry> active, Collection<CapabilityIndex.Holding> holdings,
                               Map<UUID, Stamp> from) {
        index.replaceAll(active);
        capabilities.replaceAll(holdings);
        stamps.clear();
        stamps.putAll(from);
    }

    /**
     * Until the index is built, a change is only noted (applied to a half-built index it could be lost when the build
     * replaces the content): answers true when the id was deferred, false when the caller should apply it now.
     */
    public boolean deferIfBuilding(UUID id) {
        if (built) {
            return false;
        }
        deferred.add(id);
        // the build may have finished meanwhile: then the caller applies it too (applying twice changes nothing)
        return !built;
    }

    /** The index is built: changes apply directly from now on. Answers the ids deferred meanwhile. */
    public Set<UUID> markBuilt() {
        built = true;
        var ids = Set.copyOf(deferred);
        deferred.removeAll(ids);
        return ids;
    }

    public boolean built() {
        return built;
    }

    /** What each indexed agent was indexed from. */
    public Map<UUID, Stamp> stamps() {
        return Map.copyOf(stamps);
    }

    /** The differences between the listed agents in the database and what the index holds. */
    public static Diff diff(Map<UUID, Stamp> database, Map<UUID, Stamp> indexed) {
        var apply = database.keySet().stream().filter(id -> !database.get(id).equals(indexed.get(id)));
        var remove = indexed.keySet().stream().filter(id -> !database.containsKey(id));
        return new Diff(apply.collect(Collectors.toUnmodifiableSet()), remove.collect(Collectors.toUnmodifiableSet()));
    }

    /**
     * Indexes the agent when it is active and the version serving it has an embedding, removes it otherwise.
     * {@code serving} is the agent's current version, or null.
     */
    public void apply(Agent agent, AgentVersion serving) {
        var entry = entry(agent, serving);
        if (entry.isPresent()) {
            index.put(entry.get());
            capabilities.put(agent.id(), agent.category(), capabilityVectors(serving, entry.get().capabilities()));
            stamps.put(agent.id(), new Stamp(serving.id(), agent.updatedAt()));
        } else {
            remove(agent.id());
        }
    }

    public void remove(UUID id) {
        index.remove(id);
        capabilities.remove(id);
        stamps.remove(id);
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

    /**
     * The version's stored capability embeddings; for a version stored before capabilities were embedded, computed
     * now (the start of the next instance stores them).
     */
    Map<String, float[]> capabilityVectors(AgentVersion version, List<String> names) {
        String model = embeddings.modelId();
        return version.capabilityEmbeddings(names, model).orElseGet(() -> embed(embeddings, names));
    }

    /** Each capability embedded by its words, in the given order (one vector per capability, duplicates too). */
    public static List<float[]> embedEach(Embeddings embeddings, List<String> names) {
        return names.stream().map(c -> embeddings.embed(AgentCard.words(c))).toList();
    }

    private static Map<String, float[]> embed(Embeddings embeddings, List<String> names) {
        var vectors = new LinkedHashMap<String, float[]>();
        var each = embedEach(embeddings, names);
        for (int i = 0; i < names.size(); i++) {
            vectors.putIfAbsent(names.get(i), each.get(i));
        }
        return vectors;
    }

    /** The text whose embedding stands for the agent's current version. */
    static String text(Agent a) {
        List<Capability> declared = Capability.ofCard(a.cardJson());
        return AgentCard.embeddingText(a.displayName(), a.description(), declared.isEmpty()
                ? capabilities(a).stream().map(Capability::named).toList() : declared, strings(a.cardJson(), "tags"),
                a.category());
    }

    static List<String> capabilities(Agent a) {
        return strings(a.capabilitiesJson());
    }

    private static List<String> strings(String jsonArray) {
        try (var reader = JSON.createReader(new StringReader(jsonArray))) {
            return reader.readArray().stream().map(v -> ((JsonString) v).getString()).toList();
        }
    }

    private static List<String> strings(String jsonObject, String field) {
        try (var reader = JSON.createReader(new StringReader(jsonObject))) {
            var object = reader.readObject();
            return object.containsKey(field)
                    ? object.getJsonArray(field).stream().map(v -> ((JsonString) v).getString()).toList()
                    : List.of();
        }
    }

    @PreDestroy
    void close() {
        index.close();
        capabilities.close();
    }
}
