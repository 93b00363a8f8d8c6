package dev.atrium.marketplace.control.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;

/**
 * The distinct capabilities of the indexed agents, each with the embedding computed once when its agent's version was
 * indexed, in an HNSW graph: a task's capabilities are its nearest neighbours here, so analysing a task costs one
 * embedding and one graph search whatever the size of the catalog. A capability stays while at least one indexed agent
 * declares it; each knows the categories of the agents that declare it. Mutations are serialised; searches run
 * concurrently on the last refreshed view.
 */
public final class CapabilityIndex extends LuceneIndex {

    /** A capability near the query: its name, cosine similarity and the categories of the agents declaring it. */
    public record Neighbour(String capability, double similarity, Set<String> categories) {
    }

    private static final String NAME = "name";
    private static final String VECTOR = "vector";

    /** capability → agent → that agent's category */
    private final Map<String, Map<UUID, String>> holders = new HashMap<>();
    /** agent → the capabilities it holds */
    private final Map<UUID, Set<String>> held = new HashMap<>();

    public CapabilityIndex(int dimension) {
        super(dimension, new KeywordAnalyzer());
    }

    /** The capabilities of one agent with their embeddings; replaces what the agent held before. */
    public synchronized void put(UUID agent, String category, Map<String, float[]> capabilities) {
        write(() -> {
            release(agent);
            hold(agent, category, capabilities);
        });
    }

    public synchronized void remove(UUID agent) {
        write(() -> release(agent));
    }

    /** One agent's holding, for {@link #replaceAll}. */
    public record Holding(UUID agent, String category, Map<String, float[]> capabilities) {
    }

    public synchronized void replaceAll(Collection<Holding> all) {
        write(() -> {
            writer.deleteAll();
            holders.clear();
            held.clear();
            for (Holding h : all) {
                hold(h.agent(), h.category(), h.capabilities());
            }
        });
    }

    /** How many distinct capabilities are indexed. */
    public synchronized int size() {
        return holders.size();
    }

    /** The {@code k} capabilities nearest the query, most similar first (ties by name). */
    public List<Neighbour> nearest(float[] query, int k) {
        checkDimension(query);
        return search(searcher -> {
            var found = new ArrayList<Neighbour>();
            for (ScoreDoc d : searcher.search(new KnnFloatVectorQuery(VECTOR, query, k), k).scoreDocs) {
                String name = searcher.storedFields().document(d.doc).get(NAME);
                // Lucene's cosine score is (1 + cos) / 2
                found.add(new Neighbour(name, 2 * (double) d.score - 1, categories(name)));
            }
            found.sort(Comparator.comparingDouble(Neighbour::similarity).reversed()
                    .thenComparing(Neighbour::capability));
            return List.copyOf(found);
        });
    }

    private synchronized Set<String> categories(String capability) {
        var of = holders.get(capability);
        // removed since the searcher's view was taken
        return of == null ? Set.of() : Set.copyOf(new TreeSet<>(of.values()));
    }

    private void hold(UUID agent, String category, Map<String, float[]> capabilities) throws IOException {
        var mine = new TreeSet<String>();
        for (var c : capabilities.entrySet()) {
            var of = holders.get(c.getKey());
            if (of == null) {
                checkDimension(c.getValue());
                of = new HashMap<>();
                holders.put(c.getKey(), of);
                var doc = new Document();
                doc.add(new StringField(NAME, c.getKey(), Field.Store.YES));
                doc.add(new KnnFloatVectorField(VECTOR, c.getValue(), VectorSimilarityFunction.COSINE));
                writer.addDocument(doc);
            }
            of.put(agent, category);
            mine.add(c.getKey());
        }
        held.put(agent, mine);
    }

    private void release(UUID agent) throws IOException {
        var mine = held.remove(agent);
        if (mine == null) {
            return;
        }
        for (String c : mine) {
            var of = holders.get(c);
            of.remove(agent);
            if (of.isEmpty()) {
                holders.remove(c);
                writer.deleteDocuments(new Term(NAME, c));
            }
        }
    }
}
