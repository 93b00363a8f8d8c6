package dev.atrium.marketplace.control.search;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * A task's analysis at generated catalog sizes, side by side: the {@link TaskAnalyzer}'s nearest-neighbour query over
 * the {@link CapabilityIndex} against the comparison with every distinct capability that it replaced. Agents declare
 * 3 capabilities each from a vocabulary that grows with the catalog (one distinct capability per two agents), with
 * seeded topic-shaped 384-d vectors ({@link SearchRecall}). The task's own embedding (one model call, the same for
 * both and independent of the catalog) is left out: the query vector is given.
 */
final class RecommendationBenchmark {

    record Result(int agents, int capabilities, double knnMillis, double knnP99, double scanMillis, double scanP99,
                  double agreement) {
    }

    private RecommendationBenchmark() {
    }

    static Result measure(int agents, int queries, long seed) {
        var random = new Random(seed);
        int distinct = Math.max(10, agents / 2);
        int topics = Math.max(50, distinct / 100);
        float[][] centres = new float[topics][];
        for (int t = 0; t < topics; t++) {
            centres[t] = SearchRecall.gaussian(random, 1.0);
        }
        var names = new String[distinct];
        var vectors = new float[distinct][];
        var categoryOf = new String[distinct];
        for (int c = 0; c < distinct; c++) {
            int topic = random.nextInt(topics);
            names[c] = "capability-" + c;
            vectors[c] = SearchRecall.around(centres[topic], random);
            categoryOf[c] = "category-" + topic % 20;
        }
        var holdings = new ArrayList<CapabilityIndex.Holding>(agents);
        var categoriesOf = new HashMap<String, java.util.Set<String>>();
        for (int i = 0; i < agents; i++) {
            var mine = new LinkedHashMap<String, float[]>();
            int first = random.nextInt(distinct);
            String category = categoryOf[first];
            for (int k = 0; k < 3; k++) {
                int c = k == 0 ? first : random.nextInt(distinct);
                mine.put(names[c], vectors[c]);
                categoriesOf.computeIfAbsent(names[c], x -> new java.util.TreeSet<>()).add(category);
            }
            holdings.add(new CapabilityIndex.Holding(new UUID(0, i), category, mine));
        }
        var queryVectors = new float[queries][];
        for (int q = 0; q < queries; q++) {
            queryVectors[q] = SearchRecall.around(centres[random.nextInt(topics)], random);
        }
        var current = new float[1][];
        TextEmbedder given = new TextEmbedder() {
            @Override
            public float[] embed(String text) {
                // the task's vector, or a category name's (a fixed direction per name)
                return text.startsWith("task") ? current[0]
                        : SearchRecall.gaussian(new Random(text.hashCode()), 1.0);
            }

            @Override
            public String modelId() {
                return "given";
            }

            @Override
            public int dimension() {
                return SearchRecall.DIMENSION;
            }
        };
        try (var index = new CapabilityIndex(SearchRecall.DIMENSION)) {
            index.replaceAll(holdings);
            var analyzer = new TaskAnalyzer(given);
            long[] knn = new long[queries];
            long[] scan = new long[queries];
            int agree = 0;
            for (int q = -20; q < queries; q++) {
                // the first 20 warm both paths up and are not counted
                current[0] = queryVectors[Math.floorMod(q, queries)];
                long t0 = System.nanoTime();
                var analysis = analyzer.analyze("task", index);
                long t1 = System.nanoTime();
                var exact = scan(current[0], names, vectors);
                long t2 = System.nanoTime();
                if (q >= 0) {
                    knn[q] = t1 - t0;
                    scan[q] = t2 - t1;
                    if (analysis.requiredCapabilities().equals(exact)) {
                        agree++;
                    }
                }
            }
            return new Result(agents, distinct, mean(knn), p99(knn), mean(scan), p99(scan), (double) agree / queries);
        }
    }

    /** The replaced way: every distinct capability compared with the task, the closest kept as the analyzer does. */
    private static List<String> scan(float[] query, String[] names, float[][] vectors) {
        record Scored(String name, double similarity) {
        }
        var scored = new ArrayList<Scored>(names.length);
        for (int i = 0; i < names.length; i++) {
            scored.add(new Scored(names[i], 1 - AgentIndex.distance(query, vectors[i])));
        }
        scored.sort(Comparator.comparingDouble(Scored::similarity).reversed().thenComparing(Scored::name));
        var required = new ArrayList<String>();
        for (Scored s : scored) {
            if (required.size() < TaskAnalyzer.MAX_CAPABILITIES
                    && (required.isEmpty() || s.similarity() >= TaskAnalyzer.CAPABILITY_SIMILARITY)) {
                required.add(s.name());
            }
        }
        return required;
    }

    private static double mean(long[] nanos) {
        return Arrays.stream(nanos).average().orElse(0) / 1e6;
    }

    private static double p99(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.99) - 1)] / 1e6;
    }

    /** {@code scripts/bench-recommendation}: analysis time at the given catalog sizes. */
    public static void main(String[] args) {
        long seed = Long.getLong("atrium.fuzz.seed", 20261124L);
        for (String size : args.length == 0 ? new String[] {"10000", "100000"} : args) {
            var r = measure(Integer.parseInt(size), 300, seed);
            System.out.printf("agents=%d capabilities=%d knn: mean %.2f ms p99 %.2f ms | scan of all: mean %.2f ms "
                    + "p99 %.2f ms | same capabilities: %.3f%n", r.agents(), r.capabilities(), r.knnMillis(),
                    r.knnP99(), r.scanMillis(), r.scanP99(), r.agreement());
        }
    }
}
