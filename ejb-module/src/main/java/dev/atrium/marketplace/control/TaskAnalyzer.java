package dev.atrium.marketplace.control;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.atrium.marketplace.entity.AgentCard;

/**
 * Analyses a task description into the capabilities it needs and its category, by comparing the task's embedding
 * with the embeddings of the catalog's own vocabulary (the capabilities and categories of listed agents): the
 * capabilities at least {@value #CAPABILITY_SIMILARITY} similar, the {@value #MAX_CAPABILITIES} closest (always the
 * closest one), and the category whose agents' capabilities come closest (its closest capability's similarity plus
 * half its name's), if that capability is at least {@value #CATEGORY_SIMILARITY} similar: a bare word such as
 * "finance" is too far from any sentence to tell categories apart on its own. Embeddings of these terms are cached
 * (up to {@value #CACHE_SIZE}). Thread-safe.
 */
public final class TaskAnalyzer {

    public static final double CAPABILITY_SIMILARITY = 0.3;
    public static final double CATEGORY_SIMILARITY = 0.2;
    public static final int MAX_CAPABILITIES = 5;
    static final int CACHE_SIZE = 20_000;

    /** The analysis: required capabilities (closest first) and the category, null when none is close. */
    public record Analysis(List<String> requiredCapabilities, String category) {
    }

    private final TextEmbedder embedder;
    private final Map<String, float[]> terms = java.util.Collections.synchronizedMap(
            new java.util.LinkedHashMap<>(1024, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
                    return size() > CACHE_SIZE;
                }
            });

    public TaskAnalyzer(TextEmbedder embedder) {
        this.embedder = embedder;
    }

    /** {@code vocabulary}: each category with the capabilities of its agents. */
    public Analysis analyze(String task, Map<String, Set<String>> vocabulary) {
        float[] query = embedder.embed(task);
        var capabilities = new java.util.TreeSet<String>();
        vocabulary.values().forEach(capabilities::addAll);
        record Scored(String term, double similarity) {
        }
        var scored = new ArrayList<Scored>();
        for (String c : capabilities) {
            scored.add(new Scored(c, similarity(query, c)));
        }
        scored.sort(Comparator.comparingDouble(Scored::similarity).reversed().thenComparing(Scored::term));
        var required = new ArrayList<String>();
        for (Scored s : scored) {
            if (required.size() < MAX_CAPABILITIES && (required.isEmpty() || s.similarity() >= CAPABILITY_SIMILARITY)) {
                required.add(s.term());
            }
        }
        // a category scores by its closest capability, plus half the similarity of its name
        String category = null;
        double best = Double.NEGATIVE_INFINITY;
        for (var c : new java.util.TreeMap<>(vocabulary).entrySet()) {
            double closest = c.getValue().stream().mapToDouble(t -> similarity(query, t)).max().orElse(0);
            double score = closest + 0.5 * similarity(query, c.getKey());
            if (closest >= CATEGORY_SIMILARITY && score > best) {
                best = score;
                category = c.getKey();
            }
        }
        return new Analysis(List.copyOf(required), category);
    }

    private double similarity(float[] query, String term) {
        float[] vector = terms.get(term);
        if (vector == null) {
            vector = embedder.embed(AgentCard.words(term));
            terms.put(term, vector);
        }
        return 1 - AgentIndex.distance(query, vector);
    }
}
