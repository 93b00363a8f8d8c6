package dev.atrium.marketplace.control.search;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * The distinct capabilities of the indexed agents, each with the embedding computed once when its agent's version was
 * indexed, in an HNSW graph: a task's capabilities are its nearest neighbours here, so analysing a task costs one
 * embedding and one graph search whatever the size of the catalog. A capability stays while at least one indexed agent
 * declares it; each knows the categories of the agents that declare it. Mutations are serialised; searches run
 * concurrently on the last refreshed view.
 */
public final class CapabilityIndex implements Closeable {

    /** A capability near the query: its name, cosine similarity and the categories of the agents declaring it. */
    public record Neighbour(String capability, double similarity, Set<String> categories) {
    }

    private static final String NAME = "name";
    private static final String VECTOR = "vector";

    private final int dimension;
    private final ByteBuffersDirectory directory = new ByteBuffersDirectory();
    private final IndexWriter writer;
    private final SearcherManager searchers;
    /** capability → agent → that agent's category */
    private final Map<String, Map<UUID, String>> holders = new HashMap<>();
    /** agent → the capabilities it holds */
    private final Map<UUID, Set<String>> held = new HashMap<>();

    public CapabilityIndex(int dimension) {
        this.dimension = dimension;
        try {
            writer = new IndexWriter(directory, new IndexWriterConfig(new KeywordAnalyzer())
                    .setOpenMode(IndexWriterConfig.OpenMode.CREATE));
            searchers = new SearcherManager(writer, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The capabilities of one agent with their embeddings; replaces what the agent held before. */
    public synchronized void put(UUID agent, String category, Map<String, float[]> capabilities) {
        try {
            release(agent);
            hold(agent, category, capabilities);
            searchers.maybeRefreshBlocking();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public synchronized void remove(UUID agent) {
        try {
            release(agent);
            searchers.maybeRefreshBlocking();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One agent's holding, for {@link #replaceAll}. */
    public record Holding(UUID agent, String category, Map<String, float[]> capabilities) {
    }

    public synchronized void replaceAll(Collection<Holding> all) {
        try {
            writer.deleteAll();
            holders.clear();
            held.clear();
            for (Holding h : all) {
                hold(h.agent(), h.category(), h.capabilities());
            }
            searchers.maybeRefreshBlocking();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How many distinct capabilities are indexed. */
    public synchronized int size() {
        return holders.size();
    }

    /** The {@code k} capabilities nearest the query, most similar first (ties by name). */
    public List<Neighbour> nearest(float[] query, int k) {
        check(query);
        try {
            IndexSearcher searcher = searchers.acquire();
            try {
                var found = new ArrayList<Neighbour>();
                for (ScoreDoc d : searcher.search(new KnnFloatVectorQuery(VECTOR, query, k), k).scoreDocs) {
                    String name = searcher.storedFields().document(d.doc).get(NAME);
                    // Lucene's cosine score is (1 + cos) / 2
                    found.add(new Neighbour(name, 2 * (double) d.score - 1, categories(name)));
                }
                found.sort(Comparator.comparingDouble(Neighbour::similarity).reversed()
                        .thenComparing(Neighbour::capability));
                return List.copyOf(found);
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
                check(c.getValue());
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

    private void check(float[] vector) {
        if (vector == null || vector.length != dimension) {
            throw new IllegalArgumentException("Expected a vector of " + dimension + " dimensions");
        }
    }

    @Override
    public void close() {
        try {
            searchers.close();
            writer.close();
            directory.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
