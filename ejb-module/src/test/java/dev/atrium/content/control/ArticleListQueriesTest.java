package dev.atrium.content.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.atrium.content.entity.Article;
import dev.atrium.content.entity.Tag;
import dev.atrium.platform.persistence.StatementCounter;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/**
 * The public article list's statements, counted at the JDBC driver: the page, its total and every listed
 * article's tags take three statements whatever the page size, also when the answer reads each article's tags as
 * the resource does. An N+1 (a tags query per article) fails these tests.
 */
class ArticleListQueriesTest {

    private static final Instant T0 = Instant.parse("2026-11-20T09:00:00Z");
    private static final long AUTHOR = 1;

    private static StatementCounter counter;

    @BeforeAll
    static void seed() throws SQLException {
        counter = StatementCounter.database("article-list");
        try (var c = counter.dataSource().getConnection(); var s = c.createStatement()) {
            s.execute("INSERT INTO users (id, email, username, created_at, updated_at) VALUES "
                    + "(1, 'ada@example.org', 'ada', now(), now())");
        }
        inTransaction(service -> {
            var jakarta = new Tag("jakarta", T0);
            var bench = new Tag("bench", T0);
            service.em.persist(jakarta);
            service.em.persist(bench);
            for (int i = 1; i <= 60; i++) {
                var article = Article.draft(AUTHOR, "Article " + i, "article-" + i, "Body " + i, null,
                        T0.plusSeconds(i));
                article.retag(i % 3 == 0 ? Set.of(jakarta) : Set.of(jakarta, bench), T0.plusSeconds(i));
                article.publish(T0.plusSeconds(i));
                service.em.persist(article);
            }
            return null;
        });
    }

    @AfterAll
    static void close() {
        counter.close();
    }

    @BeforeEach
    void resetCounter() {
        counter.reset();
    }

    private static <T> T inTransaction(Function<ArticleService, T> work) {
        return counter.inTransaction(em -> {
            var service = new ArticleService();
            service.em = em;
            return work.apply(service);
        });
    }

    private static ListQuery page(int pageSize, Map<String, List<String>> filters) {
        return new ListQuery(1, pageSize, false, null, pageSize, ListQuery.DEFAULT_SORT, filters, null, null, null,
                List.of());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 5, 20, 50})
    void whenAnonymousListsAPageWithItsTagsThenThreeStatementsWhateverThePageSize(int pageSize) {
        List<List<String>> tags = inTransaction(service -> {
            Listing<Article> listing = service.list(page(pageSize, Map.of()), Viewer.ANONYMOUS);
            assertThat(listing.items()).hasSize(pageSize);
            assertThat(listing.total()).isEqualTo(60);
            return listing.items().stream().map(a -> a.tags().stream().map(Tag::slug).sorted().toList()).toList();
        });
        assertThat(tags).allSatisfy(t -> assertThat(t).contains("jakarta"));
        assertThat(counter.statements()).as("page, total, tags of the page").hasSize(3);
    }

    @ParameterizedTest
    @ValueSource(ints = {61, 100})
    void whenThePageHoldsTheLastItemsThenTheTotalNeedsNoCount(int pageSize) {
        long total = inTransaction(service -> {
            var listing = service.list(page(pageSize, Map.of()), Viewer.ANONYMOUS);
            listing.items().forEach(a -> a.tags().size());
            return listing.total();
        });
        assertThat(total).isEqualTo(60);
        assertThat(counter.statements()).as("page and tags").hasSize(2);
    }

    @ParameterizedTest
    @ValueSource(ints = {5, 50})
    void whenAnAuthorListsWithAFilterThenStillThreeStatements(int pageSize) {
        inTransaction(service -> {
            var listing = service.list(page(pageSize, Map.of("author_id", List.of("1"))), new Viewer(AUTHOR, false));
            listing.items().forEach(a -> a.tags().size());
            return listing;
        });
        assertThat(counter.statements()).hasSize(3);
    }
}
