package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

/** Pagination, filtering, sorting, field selection, expansion and batch operations on the article list. */
@ExtendWith(AtriumServer.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ListConventionsIT {

    private Accounts.Account author;
    private String tag;
    private final List<Long> ids = new ArrayList<>();
    private Instant middle;

    @BeforeAll
    void createArticles() throws InterruptedException {
        author = Accounts.verified("lister");
        tag = "list-" + System.nanoTime();
        var batch = new ArrayList<Map<String, Object>>();
        for (int i = 1; i <= 12; i++) {
            batch.add(Map.of("title", String.format("Article %02d zebra", i), "body", "Body " + i,
                    "tags", i % 2 == 0 ? List.of(tag, "even") : List.of(tag)));
        }
        var first = author.api().post("/api/v1/articles/batch", batch);
        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        first.json().get("items").forEach(item -> ids.add(item.get("id").asLong()));
        Thread.sleep(20);
        middle = Instant.now();
        Thread.sleep(20);
        var more = new ArrayList<Map<String, Object>>();
        for (int i = 13; i <= 25; i++) {
            more.add(Map.of("title", String.format("Article %02d", i), "body", "Body " + i + " zebra",
                    "tags", i % 2 == 0 ? List.of(tag, "even") : List.of(tag)));
        }
        var second = author.api().post("/api/v1/articles/batch", more);
        assertThat(second.status()).isEqualTo(201);
        second.json().get("items").forEach(item -> ids.add(item.get("id").asLong()));
        for (int i = 0; i < 20; i++) {
            assertThat(author.api().post("/api/v1/articles/" + ids.get(i) + "/publish").status()).isEqualTo(200);
        }
    }

    private Reply list(String query) {
        return author.api().get("/api/v1/articles?tag=" + tag + (query.isEmpty() ? "" : "&" + query));
    }

    @Test
    void whenListingThenEnvelopeWithDefaultsAndNewestFirst() {
        var page = list("").json();
        assertThat(page.get("total").asLong()).isEqualTo(25);
        assertThat(page.get("page").asInt()).isEqualTo(1);
        assertThat(page.get("page_size").asInt()).isEqualTo(20);
        assertThat(page.get("items")).hasSize(20);
        assertThat(page.get("items").get(0).get("id").asLong()).isEqualTo(ids.get(24));
        assertThat(page.at("/_links/next").asText()).contains("page=2");
        assertThat(page.at("/_links/prev").isMissingNode()).isTrue();
    }

    @Test
    void whenPagingThenPagesDoNotOverlapAndCoverEverything() {
        Set<Long> seen = new HashSet<>();
        for (int p = 1; p <= 3; p++) {
            var page = list("page=" + p + "&page_size=10").json();
            assertThat(page.get("page_size").asInt()).isEqualTo(10);
            page.get("items").forEach(i -> assertThat(seen.add(i.get("id").asLong())).isTrue());
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(list("page=4&page_size=10").json().get("items")).isEmpty();
    }

    @Test
    void whenPageOrPageSizeIsOutOfRangeThen422With40001() {
        for (String bad : new String[] {"page=0", "page=-1", "page=x", "page_size=0", "page_size=101",
                "limit=0", "limit=101", "created_after=yesterday"}) {
            var reply = list(bad);
            assertThat(reply.status()).as(bad).isEqualTo(422);
            assertThat(reply.code()).as(bad).isEqualTo(40001);
        }
        assertThat(list("page_size=100").status()).isEqualTo(200);
    }

    @Test
    void whenSortingThenFieldsDirectionsAndUnknownFieldsIgnored() {
        var asc = list("sort=title&page_size=3").json().get("items");
        assertThat(asc.get(0).get("title").asText()).isEqualTo("Article 01 zebra");
        assertThat(asc.get(1).get("title").asText()).isEqualTo("Article 02 zebra");
        var desc = list("sort=-title&page_size=1").json().get("items");
        assertThat(desc.get(0).get("title").asText()).isEqualTo("Article 25");
        var unknown = list("sort=shoe_size,title&page_size=1").json().get("items");
        assertThat(unknown.get(0).get("title").asText()).isEqualTo("Article 01 zebra");
        var byCreated = list("sort=created_at&page_size=1").json().get("items");
        assertThat(byCreated.get(0).get("id").asLong()).isEqualTo(ids.get(0));
    }

    @Test
    void whenFilteringThenEqualityCommaOrBooleanRangeAndSearchApply() {
        assertThat(list("published=true").json().get("total").asLong()).isEqualTo(20);
        assertThat(list("published=false").json().get("total").asLong()).isEqualTo(5);
        assertThat(list("published=maybe").status()).isEqualTo(422);
        assertThat(list("status=draft").json().get("total").asLong()).isEqualTo(5);
        assertThat(list("status=draft,published").json().get("total").asLong()).isEqualTo(25);
        assertThat(list("author_id=" + author.id() + ",999999").json().get("total").asLong()).isEqualTo(25);
        assertThat(list("author_id=999999").json().get("total").asLong()).isZero();
        var evenOnly = author.api().get("/api/v1/articles?tag=even&author_id=" + author.id()).json();
        assertThat(evenOnly.get("total").asLong()).isEqualTo(12);
        assertThat(list("search=ZEBRA").json().get("total").asLong()).isEqualTo(25);
        assertThat(list("search=Article%2001").json().get("total").asLong()).isEqualTo(1);
        assertThat(list("created_before=" + middle).json().get("total").asLong()).isEqualTo(12);
        assertThat(list("created_after=" + middle).json().get("total").asLong()).isEqualTo(13);
        assertThat(list("search=%25").json().get("total").asLong()).isZero();
    }

    @Test
    void whenAnonymousThenDraftsAreLeftOut() {
        var page = Api.anonymous().get("/api/v1/articles?tag=" + tag).json();
        assertThat(page.get("total").asLong()).isEqualTo(20);
    }

    @Test
    void whenSelectingFieldsThenOnlyThoseFieldsPerItem() {
        var page = list("fields=id,title&page_size=2").json();
        assertThat(page.get("total").asLong()).isEqualTo(25);
        JsonNode item = page.get("items").get(0);
        assertThat(item.size()).isEqualTo(2);
        assertThat(item.has("id")).isTrue();
        assertThat(item.has("title")).isTrue();
        var single = author.api().get("/api/v1/articles/" + ids.get(0) + "?fields=slug").json();
        assertThat(single.size()).isEqualTo(1);
        assertThat(single.has("slug")).isTrue();
    }

    @Test
    void whenExpandingThenRelationsBecomeObjects() {
        var plain = list("page_size=1&sort=created_at").json().get("items").get(0);
        assertThat(plain.get("tags").get(0).isTextual()).isTrue();
        assertThat(plain.has("author")).isFalse();
        assertThat(plain.get("summary").isNull()).as("null fields are returned as null").isTrue();

        var expanded = list("page_size=1&sort=created_at&expand=author,tags").json().get("items").get(0);
        assertThat(expanded.at("/author/id").asLong()).isEqualTo(author.id());
        assertThat(expanded.at("/author/username").asText()).isEqualTo(author.username());
        var tagObject = expanded.get("tags").get(0);
        assertThat(tagObject.get("slug").asText()).isEqualTo(tag);
        assertThat(tagObject.get("article_count").asLong()).isEqualTo(20);
    }

    @Test
    void whenAskingByIdsThenOnlyThoseArticles() {
        var page = author.api().get("/api/v1/articles?ids=" + ids.get(0) + "," + ids.get(5) + ",999999").json();
        assertThat(page.get("items")).extracting(n -> n.get("id").asLong())
                .containsExactlyInAnyOrder(ids.get(0), ids.get(5));
    }

    @Test
    void whenUsingCursorPaginationThenSlicesCoverEverythingOnce() {
        Set<Long> seen = new HashSet<>();
        String cursor = null;
        int slices = 0;
        do {
            var reply = list("limit=10&sort=title" + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            var slice = reply.json();
            assertThat(slice.has("total")).isFalse();
            assertThat(slice.get("limit").asInt()).isEqualTo(10);
            slice.get("items").forEach(i -> assertThat(seen.add(i.get("id").asLong())).isTrue());
            cursor = slice.get("next_cursor").isNull() ? null : slice.get("next_cursor").asText();
            slices++;
        } while (cursor != null);
        assertThat(slices).isEqualTo(3);
        assertThat(seen).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(list("limit=10&cursor=bm9wZQ").status()).isEqualTo(422);
        assertThat(list("limit=5&page=2").status()).isEqualTo(422);
    }

    @Test
    void whenBatchPatchingThenAllChangeOrNoneWithTheFailingIndex() {
        var other = Accounts.verified("batcher");
        var created = other.api().post("/api/v1/articles/batch", List.of(
                Map.of("title", "B1", "body", "x"), Map.of("title", "B2", "body", "y")));
        long b1 = created.json().get("items").get(0).get("id").asLong();
        long b2 = created.json().get("items").get(1).get("id").asLong();

        var ok = other.api().patch("/api/v1/articles/batch", List.of(Map.of("id", b1, "title", "B1 new"),
                Map.of("id", b2, "summary", "s")));
        assertThat(ok.status()).as(ok.toString()).isEqualTo(200);
        assertThat(ok.json().get("items").get(0).get("title").asText()).isEqualTo("B1 new");

        var failing = other.api().patch("/api/v1/articles/batch", List.of(Map.of("id", b1, "title", "B1 newer"),
                Map.of("id", b2, "title", "")));
        assertThat(failing.status()).isEqualTo(422);
        assertThat(failing.json().at("/error/details").asText()).startsWith("items[1]");
        assertThat(other.api().get("/api/v1/articles/" + b1).json().get("title").asText()).isEqualTo("B1 new");

        var notMine = other.api().patch("/api/v1/articles/batch", List.of(Map.of("id", ids.get(0), "title", "x")));
        assertThat(notMine.status()).isEqualTo(403);
    }

    @Test
    void whenBatchCreatingWithOneInvalidItemThenNothingIsCreated() {
        var other = Accounts.verified("atomic");
        var reply = other.api().post("/api/v1/articles/batch", List.of(Map.of("title", "Fine", "body", "x"),
                Map.of("title", "", "body", "y")));
        assertThat(reply.status()).isEqualTo(422);
        assertThat(reply.json().at("/error/details").asText()).startsWith("items[1]");
        assertThat(other.api().get("/api/v1/articles?author_id=" + other.id()).json().get("total").asLong())
                .isZero();
        assertThat(other.api().post("/api/v1/articles/batch", List.of()).status()).isEqualTo(422);
    }

    @Test
    void whenBatchDeletingThenAllGoneOrNoneOnAForbiddenId() {
        var other = Accounts.verified("deleter");
        var created = other.api().post("/api/v1/articles/batch", List.of(
                Map.of("title", "D1", "body", "x"), Map.of("title", "D2", "body", "y")));
        long d1 = created.json().get("items").get(0).get("id").asLong();
        long d2 = created.json().get("items").get(1).get("id").asLong();

        var refused = other.api().delete("/api/v1/articles/batch", Map.of("ids", List.of(d1, ids.get(0))));
        assertThat(refused.status()).isEqualTo(403);
        assertThat(other.api().get("/api/v1/articles/" + d1).status()).isEqualTo(200);

        var deleted = other.api().delete("/api/v1/articles/batch", Map.of("ids", List.of(d1, d2)));
        assertThat(deleted.status()).isEqualTo(204);
        assertThat(other.api().get("/api/v1/articles/" + d1).status()).isEqualTo(404);
        assertThat(other.api().get("/api/v1/articles/" + d2).status()).isEqualTo(404);
    }
}
