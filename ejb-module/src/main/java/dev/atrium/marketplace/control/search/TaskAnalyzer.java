package dev.atrium.marketplace.control.search;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.atrium.marketplace.entity.AgentCard;

/**
 * Analyses a task description into the capabilities it needs and its category. The task is embedded once and its
 * {@value #NEIGHBOURS} nearest capabilities are found in the {@link CapabilityIndex} (embedded once each, when their
 * agent's version was indexed), so the cost does not grow with the catalog: required are the neighbours at least
 * {@value #CAPABILITY_SIMILARITY} similar, the {@value #MAX_CAPABILITIES} closest (always the closest one). The
 * category is the one, among the neighbours' categories, whose closest neighbour's similarity plus half its name's
 * similarity is highest, if that neighbour is at least {@value #CATEGORY_SIMILARITY} similar: a bare word such as
 * "finance" is too far from any sentence to tell categories apart on its own. Category names are few; their
 * embeddings are cached (up to {@value #CACHE_SIZE}). Thread-safe.
 */
public final class TaskAnalyzer {

    public static final double CAPABILITY_SIMILARITY = 0.3;
    public static final double CATEGORY_SIMILARITY = 0.2;
    public static final int MAX_CAPABILITIES = 5;
    public static final int NEIGHBOURS = 50;
    static final int CACHE_SIZE = 1_000;

    /** The analysis: required capabilities (closest first) and the category, null when none is close. */
    public record Analysis(List<String> requiredCapabilities, String category) {
    }

    private final TextEmbedder embedder;
    private final Map<String, float[]> categories = Collections.synchronizedMap(
            new LinkedHashMap<>(64, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
                    return size() > CACHE_SIZE;
                }
            });

    public TaskAnalyzer(TextEmbedder embedder) {
        this.embedder = embedder;
    }

    public Analysis analyze(String task, CapabilityIndex capabilities) {
        float[] query = embedder.embed(task);
        var neighbours = capabilities.nearest(query, NEIGHBOURS);
        var required = new ArrayList<String>();
        var closest = new HashMap<String, Double>();
        for (var n : neighbours) {
            if (required.size() < MAX_CAPABILITIES
                    && (required.isEmpty() || n.similarity() >= CAPABILITY_SIMILARITY)) {
                required.add(n.capability());
            }
            n.categories().forEach(c -> closest.merge(c, n.similarity(), Math::max));
        }
        String category = null;
        double best = Double.NEGATIVE_INFINITY;
        for (var c : new TreeMap<>(closest).entrySet()) {
            double score = c.getValue() + 0.5 * (1 - AgentIndex.distance(query, category(c.getKey())));
            if (c.getValue() >= CATEGORY_SIMILARITY && score > best) {
                best = score;
                category = c.getKey();
            }
        }
        return new Analysis(List.copyOf(required), category);
    }

    private float[] category(String name) {
        float[] vector = categories.get(name);
        if (vector == null) {
            vector = embedder.embed(AgentCard.words(name));
            categories.put(name, vector);
        }
        return vector;
    }
}
