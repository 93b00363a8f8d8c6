package dev.atrium.marketplace.control.search;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Recall@10 of the index's HNSW search against exact (brute-force) search, on a seeded catalog shaped like real
 * embeddings: normalised 384-d vectors gathered around topics (an agent is its topic plus its own detail), not
 * uniform noise, which no approximate index serves well and no real catalog looks like.
 */
final class SearchRecall {

    static final int DIMENSION = 384;

    record Result(int agents, int queries, double recall, long buildMillis, double queryMillis) {
    }

    private SearchRecall() {
    }

    static Result measure(int agents, int queries, long seed) {
        var random = new Random(seed);
        int topics = Math.max(50, agents / 100);
        float[][] centres = new float[topics][];
        for (int t = 0; t < topics; t++) {
            centres[t] = gaussian(random, 1.0);
        }
        var entries = new ArrayList<AgentIndex.Entry>(agents);
        for (int i = 0; i < agents; i++) {
            float[] v = around(centres[random.nextInt(topics)], random);
            entries.add(new AgentIndex.Entry(new UUID(0, i), "c", List.of(), "", v));
        }
        try (var index = new AgentIndex(DIMENSION)) {
            long started = System.nanoTime();
            index.replaceAll(entries);
            long buildMillis = (System.nanoTime() - started) / 1_000_000;
            double found = 0;
            long searching = 0;
            for (int q = 0; q < queries; q++) {
                float[] query = around(centres[random.nextInt(topics)], random);
                var exact = new HashSet<UUID>();
                entries.stream().sorted(Comparator.comparingDouble((AgentIndex.Entry e) -> AgentIndex.distance(query,
                        e.vector())).thenComparing(AgentIndex.Entry::id)).limit(10).forEach(e -> exact.add(e.id()));
                long t0 = System.nanoTime();
                var hits = index.vector(query, null, 10).hits();
                searching += System.nanoTime() - t0;
                found += hits.stream().filter(h -> exact.contains(h.id())).count() / 10.0;
            }
            return new Result(agents, queries, found / queries, buildMillis, searching / 1e6 / queries);
        }
    }

    static float[] around(float[] centre, Random random) {
        float[] noise = gaussian(random, 0.6);
        float[] v = new float[DIMENSION];
        for (int i = 0; i < DIMENSION; i++) {
            v[i] = centre[i] + noise[i];
        }
        return normalised(v);
    }

    static float[] gaussian(Random random, double scale) {
        float[] v = new float[DIMENSION];
        for (int i = 0; i < DIMENSION; i++) {
            v[i] = (float) (random.nextGaussian() * scale / Math.sqrt(DIMENSION));
        }
        return scale == 1.0 ? normalised(v) : v;
    }

    private static float[] normalised(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        float inverse = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < v.length; i++) {
            v[i] *= inverse;
        }
        return v;
    }

    /** {@code scripts/bench-search}: recall and query time at the given catalog sizes. */
    public static void main(String[] args) {
        long seed = Long.getLong("atrium.fuzz.seed", 20261124L);
        for (String size : args.length == 0 ? new String[] {"10000", "100000"} : args) {
            var r = measure(Integer.parseInt(size), 200, seed);
            System.out.printf("agents=%d queries=%d recall@10=%.4f build=%d ms query=%.2f ms%n", r.agents(),
                    r.queries(), r.recall(), r.buildMillis(), r.queryMillis());
        }
    }
}
