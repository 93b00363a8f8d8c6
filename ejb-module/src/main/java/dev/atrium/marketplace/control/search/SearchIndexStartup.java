package dev.atrium.marketplace.control.search;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.UUID;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.marketplace.control.AgentRepository;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentVersion;

/**
 * Loads the embedding model and builds this instance's search index from the active agents in the database while
 * the application starts, so the first search neither waits for the model nor misses agents. Current versions whose
 * stored vectors (the card's and each capability's) came from another model (or none) are embedded again and saved.
 */
@Startup
@Singleton
@DependsOn("DatabaseMigrations")
public class SearchIndexStartup {

    private static final Logger LOG = Logger.getLogger(SearchIndexStartup.class.getName());
    private static final int SLICE = 500;

    @Inject
    Embeddings embeddings;

    @Inject
    SearchIndex index;

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    AgentRepository agents;

    @PostConstruct
    void build() {
        long started = System.nanoTime();
        String model = embeddings.modelId();
        // only the index entries are kept; each slice of rows leaves the persistence context once read
        var entries = new ArrayList<AgentIndex.Entry>();
        var stamps = new HashMap<UUID, SearchIndex.Stamp>();
        var holdings = new ArrayList<CapabilityIndex.Holding>();
        UUID after = null;
        while (true) {
            var slice = agents.active(after, SLICE);
            var serving = new HashMap<UUID, AgentVersion>();
            agents.versions(slice.stream().map(Agent::currentVersionId).toList())
                    .forEach(v -> serving.put(v.id(), v));
            for (Agent a : slice) {
                AgentVersion version = serving.get(a.currentVersionId());
                if (version == null) {
                    continue;
                }
                var names = SearchIndex.capabilities(a);
                if (version.embedding() == null || !model.equals(version.embeddingModel())) {
                    version = em.merge(version);
                    version.embed(embeddings.embed(SearchIndex.text(a)), model);
                    version.embedCapabilities(null);
                }
                if (version.capabilityEmbeddings(names, model).isEmpty()) {
                    version = em.merge(version);
                    version.embedCapabilities(SearchIndex.embedEach(embeddings, names));
                }
                AgentVersion indexed = version;
                SearchIndex.entry(a, version).ifPresent(e -> {
                    entries.add(e);
                    holdings.add(new CapabilityIndex.Holding(a.id(), a.category(),
                            indexed.capabilityEmbeddings(names, model).orElseThrow()));
                    stamps.put(a.id(), new SearchIndex.Stamp(indexed.id(), a.updatedAt()));
                });
            }
            em.flush();
            em.clear();
            if (slice.size() < SLICE) {
                break;
            }
            after = slice.get(slice.size() - 1).id();
        }
        index.replaceEntries(entries, holdings, stamps);
        long ms = (System.nanoTime() - started) / 1_000_000;
        LOG.info(() -> "Search index of " + entries.size() + " active agents built in " + ms + " ms");
    }
}
