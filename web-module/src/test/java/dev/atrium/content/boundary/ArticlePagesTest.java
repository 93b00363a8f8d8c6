package dev.atrium.content.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.UriInfo;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.atrium.content.control.ArticlesVersion;
import dev.atrium.content.control.ContentConfig;
import dev.atrium.content.control.Viewer;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.time.MovableClock;

/**
 * The rendered-list cache on its own: what it keeps, for whom, and when it makes a list again. The lists are made by
 * a stand-in that writes down the state of "the database" it saw, so a kept list that is out of date shows.
 */
class ArticlePagesTest {

    private static final Viewer ADA = new Viewer(1L, false);
    private static final Viewer BOB = new Viewer(2L, false);

    private final MovableClock clock = new MovableClock();
    private final AtomicInteger made = new AtomicInteger();
    /** What the lists show: changed by "writes", each of which also changes the version, as ArticleService does. */
    private int state;
    private String version = "v0";
    private boolean versionReadable = true;
    private ArticlePages pages;

    @BeforeEach
    void wire() {
        pages = new ArticlePages();
        pages.clock = clock;
        pages.config = ConfigDefaults.of(ContentConfig.class);
        pages.config.listCacheSeconds = 60;
        pages.version = new ArticlesVersion() {
            @Override
            public Optional<String> current() {
                return versionReadable ? Optional.of(version) : Optional.empty();
            }
        };
    }

    private void write() {
        state++;
        version = "v" + state;
    }

    /** The list as the client reads it: kept or made lists are JSON bytes; lists not served here, the object. */
    private Object list(Viewer viewer, String pathAndQuery) {
        Object answer = pages.list(viewer, uri(pathAndQuery), () -> {
            made.incrementAndGet();
            return Map.of("state", state, "viewer", String.valueOf(viewer.userId()), "uri", pathAndQuery);
        });
        return answer instanceof byte[] json ? new String(json, StandardCharsets.UTF_8) : answer;
    }

    private static String expected(int state, Viewer viewer, String pathAndQuery) {
        return dev.atrium.platform.boundary.json.Json.write(Map.of("state", state, "viewer",
                String.valueOf(viewer.userId()), "uri", pathAndQuery));
    }

    /** The two parts of a request the cache reads: its whole URI and its query parameters. */
    private static UriInfo uri(String pathAndQuery) {
        URI request = URI.create("http://localhost:8080" + pathAndQuery);
        var query = new MultivaluedHashMap<String, String>();
        if (request.getRawQuery() != null) {
            for (String pair : request.getRawQuery().split("&")) {
                String[] kv = pair.split("=", 2);
                query.add(URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                        kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
            }
        }
        return (UriInfo) Proxy.newProxyInstance(UriInfo.class.getClassLoader(), new Class<?>[] {UriInfo.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getRequestUri" -> request;
                    case "getQueryParameters" -> query;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void whenTheSameListIsAskedForAgainThenItIsMadeOnceAndTheSameJsonIsSent() {
        Object first = list(Viewer.ANONYMOUS, "/api/v1/articles?page=2");
        Object second = list(Viewer.ANONYMOUS, "/api/v1/articles?page=2");

        assertThat(made).hasValue(1);
        assertThat(first).isEqualTo(second).isEqualTo(expected(0, Viewer.ANONYMOUS, "/api/v1/articles?page=2"));
    }

    @Test
    void whenAnArticleChangesThenTheListIsMadeAgain() {
        list(Viewer.ANONYMOUS, "/api/v1/articles");
        write();

        assertThat(list(Viewer.ANONYMOUS, "/api/v1/articles")).isEqualTo(expected(1, Viewer.ANONYMOUS,
                "/api/v1/articles"));
        assertThat(made).hasValue(2);
    }

    @Test
    void whenAnotherViewerOrAnotherQueryThenItsOwnList() {
        list(Viewer.ANONYMOUS, "/api/v1/articles");
        list(ADA, "/api/v1/articles");
        list(BOB, "/api/v1/articles");
        list(new Viewer(1L, true), "/api/v1/articles");
        list(ADA, "/api/v1/articles?tag=java");
        list(ADA, "/api/v1/articles?tag=java");

        assertThat(made).hasValue(5);
        assertThat(list(BOB, "/api/v1/articles")).isEqualTo(expected(0, BOB, "/api/v1/articles"));
    }

    @Test
    void whenAListIsOlderThanTheCachesSecondsThenItIsMadeAgain() {
        list(Viewer.ANONYMOUS, "/api/v1/articles");
        clock.advance(Duration.ofSeconds(59));
        list(Viewer.ANONYMOUS, "/api/v1/articles");
        assertThat(made).hasValue(1);

        clock.advance(Duration.ofSeconds(1));
        list(Viewer.ANONYMOUS, "/api/v1/articles");

        assertThat(made).hasValue(2);
    }

    @Test
    void whenAuthorsAreExpandedOrFieldsChosenThenTheListIsMadeEachTimeAndLeftToTheFilters() {
        for (String query : List.of("?expand=author", "?expand=tags,author", "?fields=id,title", "?fields=")) {
            Object first = list(Viewer.ANONYMOUS, "/api/v1/articles" + query);
            list(Viewer.ANONYMOUS, "/api/v1/articles" + query);
            assertThat(first).as(query).isInstanceOf(Map.class);
        }
        assertThat(made).hasValue(8);
        list(Viewer.ANONYMOUS, "/api/v1/articles?expand=tags");
        list(Viewer.ANONYMOUS, "/api/v1/articles?expand=tags");
        assertThat(made).hasValue(9);
    }

    @Test
    void whenTheVersionCannotBeReadThenEveryListIsMade() {
        list(Viewer.ANONYMOUS, "/api/v1/articles");
        versionReadable = false;
        list(Viewer.ANONYMOUS, "/api/v1/articles");
        list(Viewer.ANONYMOUS, "/api/v1/articles");

        assertThat(made).hasValue(3);
    }

    @Test
    void whenTheCacheIsTurnedOffThenEveryListIsMade() {
        pages.config.listCacheSeconds = 0;
        list(Viewer.ANONYMOUS, "/api/v1/articles");
        list(Viewer.ANONYMOUS, "/api/v1/articles");

        assertThat(made).hasValue(2);
    }

    @Test
    void whenRequestsMadeUpToFillTheCacheComeThenItStartsAfreshAndKeepsServing() {
        list(Viewer.ANONYMOUS, "/api/v1/articles");
        for (int i = 0; i < ArticlePages.MAX_PAGES; i++) {
            list(Viewer.ANONYMOUS, "/api/v1/articles?junk=" + i);
        }
        int afterFilling = made.get();

        list(Viewer.ANONYMOUS, "/api/v1/articles");
        list(Viewer.ANONYMOUS, "/api/v1/articles");

        assertThat(made.get() - afterFilling).as("made again once, then kept again").isEqualTo(1);
    }

    @Test
    void whenAListIsLongerThanTheLimitThenItIsNotKept() {
        var pages = this.pages;
        Object first = pages.list(Viewer.ANONYMOUS, uri("/api/v1/articles"), () -> {
            made.incrementAndGet();
            return Map.of("body", "x".repeat(ArticlePages.MAX_PAGE_BYTES));
        });
        pages.list(Viewer.ANONYMOUS, uri("/api/v1/articles"), () -> {
            made.incrementAndGet();
            return Map.of("body", "x".repeat(ArticlePages.MAX_PAGE_BYTES));
        });

        assertThat(first).isInstanceOf(byte[].class);
        assertThat(made).hasValue(2);
    }

    /**
     * Seeded: random lists by random viewers (hostile queries among them), interleaved with writes, with the clock
     * moving; every answer equals a list made from the current state — a kept list is never out of date.
     */
    @Test
    void whenListsAndWritesInterleaveAtRandomThenNoAnswerIsEverOutOfDate() {
        var random = new Random(20261126);
        var viewers = List.of(Viewer.ANONYMOUS, ADA, BOB, new Viewer(1L, true));
        var queries = new ArrayList<>(List.of("", "?page=2", "?tag=java,jakarta", "?search=%E2%9C%93",
                "?expand=tags", "?expand=author", "?fields=id", "?sort=-title&page_size=100", "?page=1&page=2",
                "?%00=%00", "?tag=" + "a".repeat(3000), "?cursor=..%2F..%2F", "?search=%22%3E%3Cscript%3E"));
        int kept = 0;
        for (int i = 0; i < 20_000; i++) {
            int roll = random.nextInt(1000);
            if (roll < 5) {
                write();
            } else if (roll < 15) {
                clock.advance(Duration.ofSeconds(random.nextInt(20)));
            } else {
                Viewer viewer = viewers.get(random.nextInt(viewers.size()));
                String path = "/api/v1/articles" + queries.get(random.nextInt(queries.size()));
                int before = made.get();
                Object answer = list(viewer, path);
                String json = answer instanceof String s ? s : dev.atrium.platform.boundary.json.Json.write(answer);
                assertThat(json).as("request %d: %s by %s", i, path, viewer).isEqualTo(expected(state, viewer, path));
                kept += made.get() == before ? 1 : 0;
            }
        }
        assertThat(kept).as("answers from the cache").isGreaterThan(12_000);
    }
}
