package dev.atrium.marketplace.control.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;

/**
 * The search index of listed agents, in memory: an HNSW graph of their capability embeddings (cosine) and a BM25
 * keyword index of the same text, both in Lucene. Each instance of the application holds its own, built from the
 * database at start and kept current by change events. Thread-safe: writes go through one {@link IndexWriter},
 * searches through a {@link SearcherManager} refreshed after each change.
 *
 * <p>{@code distance} is 1 minus the cosine similarity (0 = same direction, 2 = opposite). Vector search asks the
 * graph for more neighbours than requested ({@link #CANDIDATES}) and keeps the nearest, which makes the approximate
 * search close to exact at these sizes. Hybrid search fuses the vector ranking and the BM25 ranking by reciprocal rank
 * (k = {@value #RRF_K}).
 */
public final class AgentIndex extends LuceneIndex {

    /** One listed agent as the index sees it. */
    public record Entry(UUID id, String category, List<String> capabilities, String text, float[] vector) {
    }

    /** One result: the agent, its cosine distance to the query, and the score it was ordered by. */
    public record Hit(UUID id, double distance, double score) {
    }

    /** The first hits, and how many indexed agents matched the filters. */
    public record Page(List<Hit> hits, long total) {
    }

    public static final int RRF_K = 60;
    static final int CANDIDATES = 100;

    private static final String ID = "id";
    private static final String CATEGORY = "category";
    private static final String TEXT = "text";
    private static final String VECTOR = "vector";

    private final Analyzer analyzer;
    private final Map<UUID, Entry> entries = new ConcurrentHashMap<>();

    public AgentIndex(int dimension) {
        this(dimension, new EnglishAnalyzer());
    }

    private AgentIndex(int dimension, Analyzer analyzer) {
        super(dimension, analyzer);
        this.analyzer = analyzer;
    }

    /** Adds or replaces one agent. */
    public void put(Entry entry) {
        write(() -> writer.updateDocument(new Term(ID, entry.id().toString()), document(entry)));
        entries.put(entry.id(), entry);
    }

    public void remove(UUID id) {
        write(() -> writer.deleteDocuments(new Term(ID, id.toString())));
        entries.remove(id);
    }

    /** Replaces the whole content, as at start. */
    public void replaceAll(Collection<Entry> all) {
        write(() -> {
            writer.deleteAll();
            for (Entry e : all) {
                writer.addDocument(document(e));
            }
        });
        entries.clear();
        all.forEach(e -> entries.put(e.id(), e));
    }

    public int size() {
        return entries.size();
    }

    public boolean contains(UUID id) {
        return entries.containsKey(id);
    }

    /** Nearest agents by cosine distance, ascending; {@code category} (nullable) must match exactly. */
    public Page vector(float[] query, String category, int limit) {
        checkDimension(query);
        return search(searcher -> {
            Query filter = filter(category);
            var top = searcher.search(new KnnFloatVectorQuery(VECTOR, query, Math.max(limit, CANDIDATES), filter),
                    Math.max(limit, CANDIDATES));
            var hits = new ArrayList<Hit>();
            for (ScoreDoc d : top.scoreDocs) {
                UUID id = id(searcher, d.doc);
                // Lucene's cosine score is (1 + cos) / 2
                double distance = clampDistance(2 - 2 * (double) d.score);
                hits.add(new Hit(id, distance, 1 - distance));
            }
            hits.sort(Comparator.comparingDouble(Hit::distance).thenComparing(Hit::id));
            return new Page(List.copyOf(hits.subList(0, Math.min(limit, hits.size()))), count(searcher, filter));
        });
    }

    /**
     * Vector and BM25 keyword rankings fused by reciprocal rank: each list contributes 1 / (k + rank). Ties go to the
     * smaller distance.
     */
    public Page hybrid(float[] query, String text, String category, int limit) {
        checkDimension(query);
        int depth = Math.max(limit, CANDIDATES);
        return search(searcher -> {
            Query filter = filter(category);
            var fused = new HashMap<UUID, Double>();
            var vectorTop = searcher.search(new KnnFloatVectorQuery(VECTOR, query, depth, filter), depth);
            rank(searcher, vectorTop.scoreDocs, fused);
            Query keywords = keywords(text, filter);
            if (keywords != null) {
                rank(searcher, searcher.search(keywords, depth).scoreDocs, fused);
            }
            var hits = new ArrayList<Hit>();
            fused.forEach((id, score) -> {
                Entry e = entries.get(id);
                if (e != null) {
                    hits.add(new Hit(id, distance(query, e.vector()), score));
                }
            });
            hits.sort(Comparator.comparingDouble(Hit::score).reversed().thenComparingDouble(Hit::distance)
                    .thenComparing(Hit::id));
            return new Page(List.copyOf(hits.subList(0, Math.min(limit, hits.size()))), count(searcher, filter));
        });
    }

    private void rank(IndexSearcher searcher, ScoreDoc[] docs, Map<UUID, Double> fused) throws IOException {
        for (int i = 0; i < docs.length; i++) {
            fused.merge(id(searcher, docs[i].doc), 1.0 / (RRF_K + i + 1), Double::sum);
        }
    }

    /** Any of the analysed words of the text (BM25 adds up the ones present), within the filter. */
    private Query keywords(String text, Query filter) throws IOException {
        var words = new LinkedHashSet<String>();
        try (var stream = analyzer.tokenStream(TEXT, text == null ? "" : text)) {
            var term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                words.add(term.toString());
            }
            stream.end();
        }
        if (words.isEmpty()) {
            return null;
        }
        var any = new BooleanQuery.Builder();
        words.forEach(w -> any.add(new TermQuery(new Term(TEXT, w)), BooleanClause.Occur.SHOULD));
        if (filter == null) {
            return any.build();
        }
        return new BooleanQuery.Builder().add(any.build(), BooleanClause.Occur.MUST)
                .add(filter, BooleanClause.Occur.FILTER).build();
    }

    /** 1 minus the cosine similarity of two vectors. */
    public static double distance(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        if (na == 0 || nb == 0) {
            return 1;
        }
        return clampDistance(1 - dot / Math.sqrt(na * nb));
    }

    private static double clampDistance(double d) {
        return Math.max(0, Math.min(2, d));
    }

    private static Query filter(String category) {
        return category == null || category.isBlank() ? null
                : new TermQuery(new Term(CATEGORY, category.trim().toLowerCase(Locale.ROOT)));
    }

    private static long count(IndexSearcher searcher, Query filter) throws IOException {
        return searcher.count(filter == null ? new MatchAllDocsQuery() : filter);
    }

    private static UUID id(IndexSearcher searcher, int doc) throws IOException {
        return UUID.fromString(searcher.storedFields().document(doc).get(ID));
    }

    private Document document(Entry e) {
        checkDimension(e.vector());
        var doc = new Document();
        doc.add(new StringField(ID, e.id().toString(), Field.Store.YES));
        doc.add(new StringField(CATEGORY, e.category().toLowerCase(Locale.ROOT), Field.Store.NO));
        doc.add(new TextField(TEXT, e.text(), Field.Store.NO));
        doc.add(new KnnFloatVectorField(VECTOR, e.vector(), VectorSimilarityFunction.COSINE));
        return doc;
    }
}
