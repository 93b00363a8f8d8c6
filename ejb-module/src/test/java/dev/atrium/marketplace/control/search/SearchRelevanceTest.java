package dev.atrium.marketplace.control.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.BiFunction;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Relevance measured on the fixture catalog (60 agents, 20 queries whose best agent is known) with the real model
 * and the real index: recall@k is the share of queries whose expected agent is among the first k.
 */
class SearchRelevanceTest {

    private static RelevanceCatalog catalog;
    private static AgentIndex index;
    private static TextEmbedder embedder;

    @BeforeAll
    static void build() {
        embedder = TestModel.embedder();
        catalog = RelevanceCatalog.load();
        index = catalog.index(embedder);
    }

    private static double recall(int k, BiFunction<String, Integer, AgentIndex.Page> search) {
        int found = 0;
        for (RelevanceCatalog.Query query : catalog.queries()) {
            List<String> names = search.apply(query.q(), k).hits().stream()
                    .map(h -> catalog.nameOf(h.id())).toList();
            if (names.contains(query.expected())) {
                found++;
            }
        }
        return (double) found / catalog.queries().size();
    }

    private static AgentIndex.Page vector(String q, int k) {
        return index.vector(embedder.embed(q), null, k);
    }

    private static AgentIndex.Page hybrid(String q, int k) {
        return index.hybrid(embedder.embed(q), q, null, k);
    }

    @Test
    void whenTheFixtureIsLargeEnoughThenTheMeasureMeansSomething() {
        assertThat(catalog.agents()).hasSizeGreaterThanOrEqualTo(50);
        assertThat(catalog.queries()).hasSizeGreaterThanOrEqualTo(20);
    }

    @Test
    void whenVectorSearchThenRecallAtFiveIsAtLeastNinetyPercent() {
        double at1 = recall(1, SearchRelevanceTest::vector);
        double at5 = recall(5, SearchRelevanceTest::vector);
        System.out.printf("Relevance, vector: recall@1 %.2f, recall@5 %.2f%n", at1, at5);

        assertThat(at5).isGreaterThanOrEqualTo(0.9);
    }

    @Test
    void whenHybridSearchThenRecallAtFiveIsAtLeastNinetyPercent() {
        double at1 = recall(1, SearchRelevanceTest::hybrid);
        double at5 = recall(5, SearchRelevanceTest::hybrid);
        System.out.printf("Relevance, hybrid: recall@1 %.2f, recall@5 %.2f%n", at1, at5);

        assertThat(at5).isGreaterThanOrEqualTo(0.9);
    }

    @Test
    void whenSearchingThenDistancesAscendAndStayWithinZeroAndTwo() {
        var hits = vector("translate a document", 10).hits();

        assertThat(hits).hasSize(10);
        assertThat(hits).extracting(AgentIndex.Hit::distance).isSorted()
                .allSatisfy(d -> assertThat(d).isBetween(0.0, 2.0));
    }

    @Test
    void whenACategoryIsGivenThenOnlyThatCategoryIsFound() {
        var page = index.vector(embedder.embed("translate a document"), "finance", 10);

        assertThat(page.total()).isEqualTo(catalog.agents().stream().filter(a -> a.category().equals("finance"))
                .count());
        assertThat(page.hits()).extracting(h -> catalog.agents().stream().filter(a -> a.id().equals(h.id()))
                .findFirst().orElseThrow().category()).containsOnly("finance");
    }

    @Test
    void whenATaskIsAnalysedThenItsCapabilitiesAndCategoryComeFromTheCatalog() {
        var analyzer = new TaskAnalyzer(embedder);
        var declared = catalog.agents().stream().flatMap(a -> a.capabilities().stream()).toList();

        try (var capabilities = catalog.capabilities(embedder)) {
            var analysis = analyzer.analyze("Please translate our user guide from English into German", capabilities);

            assertThat(analysis.requiredCapabilities()).isNotEmpty().contains("translate-text")
                    .allMatch(declared::contains);
            assertThat(analysis.category()).isEqualTo("language");
            assertThat(analyzer.analyze("pull the VAT and totals out of scanned supplier bills", capabilities)
                    .category()).isEqualTo("finance");
            assertThat(analyzer.analyze("why does my pod keep crashing after the deploy", capabilities)
                    .category()).isEqualTo("devops");
        }
    }
}
