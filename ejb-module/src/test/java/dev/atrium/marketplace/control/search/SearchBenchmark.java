package dev.atrium.marketplace.control.search;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Search latency of the index at catalog sizes the fixture cannot reach, and the time to embed one query; run by
 * {@code scripts/bench-marketplace-search}, never by the test suite (no wall-clock assertions).
 *
 * <p>The catalog is generated: each agent's vector mixes the real embeddings of two fixture agents plus noise and
 * is normalised, and its text joins their texts, so vectors cluster by topic as real ones do and BM25 has real words
 * to score. Queries are the real embeddings of the fixture's 20 queries. Latency is per search, measured in one
 * thread after a warm-up.
 */
public final class SearchBenchmark {

    private static final int WARM_UP = 300;
    private static final int MEASURED = 2000;

    private SearchBenchmark() {
    }

    public static void main(String[] args) {
        int[] sizes = args.length == 0 ? new int[] {10_000, 100_000}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        TextEmbedder embedder = TestModel.embedder();
        RelevanceCatalog catalog = RelevanceCatalog.load();
        List<float[]> bases = catalog.agents().stream().map(a -> embedder.embed(a.text())).toList();
        List<String> queries = catalog.queries().stream().map(RelevanceCatalog.Query::q).toList();

        embeddingTime(embedder, queries);
        List<float[]> queryVectors = queries.stream().map(embedder::embed).toList();
        for (int size : sizes) {
            run(size, catalog, bases, queries, queryVectors);
        }
    }

    private static void embeddingTime(TextEmbedder embedder, List<String> queries) {
        for (int i = 0; i < 50; i++) {
            embedder.embed(queries.get(i % queries.size()));
        }
        var times = new long[500];
        for (int i = 0; i < times.length; i++) {
            long started = System.nanoTime();
            embedder.embed(queries.get(i % queries.size()));
            times[i] = System.nanoTime() - started;
        }
        System.out.printf("Embedding one query (%s): p50 %.2f ms, p99 %.2f ms over %d queries%n",
                embedder.modelId(), ms(times, 0.50), ms(times, 0.99), times.length);
    }

    private static void run(int size, RelevanceCatalog catalog, List<float[]> bases, List<String> queries,
                            List<float[]> queryVectors) {
        var random = new Random(size);
        var entries = new ArrayList<AgentIndex.Entry>(size);
        for (int i = 0; i < size; i++) {
            int a = random.nextInt(bases.size());
            int b = random.nextInt(bases.size());
            float[] v = new float[bases.get(a).length];
            for (int d = 0; d < v.length; d++) {
                v[d] = bases.get(a)[d] + 0.35f * bases.get(b)[d] + (float) (random.nextGaussian() * 0.02);
            }
            normalise(v);
            var first = catalog.agents().get(a);
            String text = first.text() + " " + catalog.agents().get(b).text();
            entries.add(new AgentIndex.Entry(UUID.randomUUID(), first.category(), first.capabilities(), text, v));
        }
        try (var index = new AgentIndex(bases.get(0).length)) {
            long started = System.nanoTime();
            index.replaceAll(entries);
            System.out.printf("%,d agents indexed in %.1f s%n", size, (System.nanoTime() - started) / 1e9);
            measure(size, "vector", i -> index.vector(queryVectors.get(i % queryVectors.size()), null, 10));
            measure(size, "vector+category", i -> index.vector(queryVectors.get(i % queryVectors.size()),
                    catalog.agents().get(i % catalog.agents().size()).category(), 10));
            measure(size, "hybrid", i -> index.hybrid(queryVectors.get(i % queryVectors.size()),
                    queries.get(i % queries.size()), null, 10));
        }
    }

    private static void measure(int size, String mode, java.util.function.IntFunction<AgentIndex.Page> search) {
        for (int i = 0; i < WARM_UP; i++) {
            search.apply(i);
        }
        var times = new long[MEASURED];
        for (int i = 0; i < MEASURED; i++) {
            long started = System.nanoTime();
            search.apply(i);
            times[i] = System.nanoTime() - started;
        }
        System.out.printf("%,d agents, %s search (limit 10): p50 %.2f ms, p99 %.2f ms over %d searches%n", size,
                mode, ms(times, 0.50), ms(times, 0.99), MEASURED);
    }

    private static double ms(long[] nanos, double quantile) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int at = (int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1);
        return sorted[Math.max(0, at)] / 1e6;
    }

    private static void normalise(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        float scale = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < v.length; i++) {
            v[i] *= scale;
        }
    }
}
