package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Spec 02's content API: articles, publishing, comments, tags, ownership. */
@ExtendWith(AtriumServer.class)
class ContentIT {

    private final Api anonymous = Api.anonymous();

    private static long create(Accounts.Account author, String title, List<String> tags) {
        var reply = author.api().post("/api/v1/articles", Map.of("title", title, "body", "Body of " + title,
                "tags", tags));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json().get("id").asLong();
    }

    @Test
    void whenCreatingAnArticleThenADraftWithLocationAndLinks() {
        var author = Accounts.verified("author");
        var reply = author.api().post("/api/v1/articles", Map.of("title", "Jakarta EE at Scale",
                "body", "Long body", "summary", "Short", "tags", List.of("Jakarta EE", "java")));
        assertThat(reply.status()).isEqualTo(201);
        long id = reply.json().get("id").asLong();
        assertThat(reply.header("Location")).isEqualTo("/api/v1/articles/" + id);
        var article = reply.json();
        assertThat(article.get("status").asText()).isEqualTo("draft");
        assertThat(article.get("slug").asText()).startsWith("jakarta-ee-at-scale");
        assertThat(article.get("author_id").asLong()).isEqualTo(author.id());
        assertThat(article.get("published_at").isNull()).isTrue();
        assertThat(article.get("tags")).extracting(n -> n.asText()).containsExactly("jakarta-ee", "java");
        assertThat(article.at("/_links/self").asText()).isEqualTo("/api/v1/articles/" + id);
        assertThat(article.at("/_links/publish").asText()).isEqualTo("/api/v1/articles/" + id + "/publish");
        assertThat(article.has("author")).isFalse();
    }

    @Test
    void whenTitlesRepeatThenSlugsStayUnique() {
        var author = Accounts.verified("slug");
        String title = "Same Title " + System.nanoTime();
        var first = author.api().get("/api/v1/articles/" + create(author, title, List.of())).json();
        var second = author.api().get("/api/v1/articles/" + create(author, title, List.of())).json();
        assertThat(second.get("slug").asText()).isNotEqualTo(first.get("slug").asText())
                .startsWith(first.get("slug").asText());
    }

    @Test
    void whenDraftThenOnlyItsAuthorSeesIt() {
        var author = Accounts.verified("drafter");
        long id = create(author, "Secret draft", List.of());
        assertThat(anonymous.get("/api/v1/articles/" + id).status()).isEqualTo(404);
        assertThat(Accounts.verified("stranger").api().get("/api/v1/articles/" + id).status()).isEqualTo(404);
        assertThat(author.api().get("/api/v1/articles/" + id).status()).isEqualTo(200);
        var list = anonymous.get("/api/v1/articles?author_id=" + author.id()).json();
        assertThat(list.get("total").asLong()).isZero();
    }

    @Test
    void whenPublishedThenEveryoneSeesItWithPublishedAt() {
        var author = Accounts.verified("publisher");
        long id = create(author, "Going public", List.of());
        var published = author.api().post("/api/v1/articles/" + id + "/publish");
        assertThat(published.status()).isEqualTo(200);
        assertThat(published.json().get("status").asText()).isEqualTo("published");
        assertThat(published.json().get("published_at").asText()).endsWith("Z");
        assertThat(published.json().at("/_links/publish").isMissingNode()).isTrue();
        assertThat(anonymous.get("/api/v1/articles/" + id).status()).isEqualTo(200);

        var again = author.api().post("/api/v1/articles/" + id + "/publish");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().get("published_at")).isEqualTo(published.json().get("published_at"));
    }

    @Test
    void whenNotTheAuthorThenChangesAreForbiddenButAdministratorsMayModerate() {
        var author = Accounts.verified("owner");
        long id = create(author, "Mine", List.of());
        author.api().post("/api/v1/articles/" + id + "/publish");
        var other = Accounts.verified("intruder");
        assertThat(other.api().patch("/api/v1/articles/" + id, Map.of("title", "Hijacked")).status()).isEqualTo(403);
        assertThat(other.api().delete("/api/v1/articles/" + id).status()).isEqualTo(403);
        assertThat(anonymous.patch("/api/v1/articles/" + id, Map.of("title", "x")).status()).isEqualTo(401);
        assertThat(anonymous.post("/api/v1/articles", Map.of("title", "x", "body", "y")).status()).isEqualTo(401);

        long draft = create(author, "Draft to moderate", List.of());
        var admin = Accounts.admin();
        assertThat(admin.api().post("/api/v1/articles/" + draft + "/publish").status()).isEqualTo(200);
        assertThat(admin.api().patch("/api/v1/articles/" + id, Map.of("title", "Moderated")).status()).isEqualTo(200);
        assertThat(admin.api().delete("/api/v1/articles/" + id).status()).isEqualTo(204);
        assertThat(anonymous.get("/api/v1/articles/" + id).status()).isEqualTo(404);
    }

    @Test
    void whenPatchingAnArticleThenOnlySentFieldsChange() {
        var author = Accounts.verified("editor");
        long id = create(author, "Before", List.of("a"));
        var reply = author.api().patch("/api/v1/articles/" + id, Map.of("summary", "Now summarized"));
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().get("title").asText()).isEqualTo("Before");
        assertThat(reply.json().get("summary").asText()).isEqualTo("Now summarized");
        assertThat(reply.json().get("tags")).extracting(n -> n.asText()).containsExactly("a");
        var retag = author.api().patch("/api/v1/articles/" + id, Map.of("tags", List.of("b", "c")));
        assertThat(retag.json().get("tags")).extracting(n -> n.asText()).containsExactly("b", "c");
        assertThat(author.api().patch("/api/v1/articles/" + id, Map.of("title", "")).status()).isEqualTo(422);
        assertThat(author.api().patch("/api/v1/articles/999999999", Map.of("title", "x")).status()).isEqualTo(404);
    }

    private static List<String> titles(Api api, String query) {
        var reply = api.get("/api/v1/articles?" + query);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        var titles = new java.util.ArrayList<String>();
        reply.json().get("items").forEach(item -> titles.add(item.get("title").asText()));
        return titles;
    }

    /**
     * Lists are kept rendered between writes (docs/decisions/content.md, "Article lists kept rendered"): each kind of
     * write shows in the very next list, for everyone who sees it, and a draft only in its author's.
     */
    @Test
    void whenArticlesChangeThenTheNextListShowsItForEveryViewer() {
        var author = Accounts.verified("lister");
        var reader = Accounts.verified("reader");
        String query = "author_id=" + author.id();
        long first = create(author, "Ärticle one ✓", List.of("kept"));
        author.api().post("/api/v1/articles/" + first + "/publish");
        assertThat(titles(anonymous, query)).containsExactlyInAnyOrder("Ärticle one ✓");
        assertThat(titles(anonymous, query)).as("the same list again").containsExactlyInAnyOrder("Ärticle one ✓");
        assertThat(titles(reader.api(), query)).containsExactlyInAnyOrder("Ärticle one ✓");

        long draft = create(author, "Draft two", List.of());
        assertThat(titles(author.api(), query)).containsExactlyInAnyOrder("Draft two", "Ärticle one ✓");
        assertThat(titles(anonymous, query)).containsExactlyInAnyOrder("Ärticle one ✓");
        assertThat(titles(reader.api(), query)).containsExactlyInAnyOrder("Ärticle one ✓");

        author.api().post("/api/v1/articles/" + draft + "/publish");
        assertThat(titles(anonymous, query)).containsExactlyInAnyOrder("Draft two", "Ärticle one ✓");
        assertThat(titles(reader.api(), query)).containsExactlyInAnyOrder("Draft two", "Ärticle one ✓");

        author.api().patch("/api/v1/articles/" + first, Map.of("title", "A renamed one"));
        assertThat(titles(anonymous, query)).containsExactlyInAnyOrder("A renamed one", "Draft two");

        var batch = author.api().post("/api/v1/articles/batch", List.of(Map.of("title", "Batch three", "body", "b")));
        assertThat(batch.status()).isEqualTo(201);
        assertThat(titles(author.api(), query)).containsExactlyInAnyOrder("A renamed one", "Batch three", "Draft two");

        author.api().delete("/api/v1/articles/" + draft);
        assertThat(titles(anonymous, query)).containsExactlyInAnyOrder("A renamed one");
        assertThat(titles(author.api(), query)).containsExactlyInAnyOrder("A renamed one", "Batch three");

        var tagged = anonymous.get("/api/v1/articles?tag=kept&expand=tags&author_id=" + author.id()).json();
        assertThat(tagged.at("/items/0/tags/0/slug").asText()).isEqualTo("kept");
        var chosen = anonymous.get("/api/v1/articles?" + query + "&fields=id").json();
        assertThat(chosen.at("/items/0").size()).as("fields still shapes a list").isEqualTo(1);
    }

    @Test
    void whenArticleInputIsInvalidThen422WithCode40001() {
        var author = Accounts.verified("invalid");
        var reply = author.api().post("/api/v1/articles", Map.of("title", "", "body", "x"));
        assertThat(reply.status()).isEqualTo(422);
        assertThat(reply.code()).isEqualTo(40001);
        assertThat(reply.json().at("/error/details").asText()).contains("title");
        var tooManyTags = author.api().post("/api/v1/articles", Map.of("title", "t", "body", "b",
                "tags", List.of("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11")));
        assertThat(tooManyTags.status()).isEqualTo(422);
        assertThat(author.api().get("/api/v1/articles/abc").status()).isEqualTo(404);
    }

    @Test
    void whenCommentingThenListedAndDeletableByTheRightPeopleOnly() {
        var author = Accounts.verified("host");
        long id = create(author, "Discuss", List.of());
        var reader = Accounts.verified("reader");
        assertThat(reader.api().post("/api/v1/articles/" + id + "/comments", Map.of("body", "Early!")).status())
                .as("draft is invisible to others").isEqualTo(404);
        author.api().post("/api/v1/articles/" + id + "/publish");

        var comment = reader.api().post("/api/v1/articles/" + id + "/comments", Map.of("body", "Nice"));
        assertThat(comment.status()).isEqualTo(201);
        long commentId = comment.json().get("id").asLong();
        assertThat(comment.json().get("article_id").asLong()).isEqualTo(id);
        assertThat(comment.json().get("author_id").asLong()).isEqualTo(reader.id());
        assertThat(comment.header("Location")).isEqualTo("/api/v1/comments/" + commentId);
        long second = reader.api().post("/api/v1/articles/" + id + "/comments", Map.of("body", "Again"))
                .json().get("id").asLong();

        var list = anonymous.get("/api/v1/articles/" + id + "/comments").json();
        assertThat(list.get("total").asLong()).isEqualTo(2);
        assertThat(list.get("items").get(0).get("body").asText()).isEqualTo("Again");

        assertThat(anonymous.post("/api/v1/articles/" + id + "/comments", Map.of("body", "anon")).status())
                .isEqualTo(401);
        assertThat(reader.api().post("/api/v1/articles/" + id + "/comments", Map.of("body", "")).status())
                .isEqualTo(422);
        var stranger = Accounts.verified("stranger");
        assertThat(stranger.api().delete("/api/v1/comments/" + commentId).status()).isEqualTo(403);
        assertThat(author.api().delete("/api/v1/comments/" + commentId).status()).isEqualTo(204);
        assertThat(reader.api().delete("/api/v1/comments/" + second).status()).isEqualTo(204);
        assertThat(reader.api().delete("/api/v1/comments/" + second).status()).isEqualTo(404);
    }

    @Test
    void whenArticleIsDeletedThenItsCommentsGoWithIt() {
        var author = Accounts.verified("cascade");
        long id = create(author, "Short-lived", List.of());
        author.api().post("/api/v1/articles/" + id + "/publish");
        long commentId = author.api().post("/api/v1/articles/" + id + "/comments", Map.of("body", "c"))
                .json().get("id").asLong();
        assertThat(author.api().delete("/api/v1/articles/" + id).status()).isEqualTo(204);
        assertThat(author.api().delete("/api/v1/comments/" + commentId).status()).isEqualTo(404);
        assertThat(anonymous.get("/api/v1/articles/" + id + "/comments").status()).isEqualTo(404);
    }

    @Test
    void whenListingTagsThenPublishedUsageIsCountedAndDraftOnlyTagsStayHidden() {
        var author = Accounts.verified("tagger");
        String shared = "shared-" + System.nanoTime();
        String hidden = "hidden-" + System.nanoTime();
        long a = create(author, "One", List.of(shared));
        long b = create(author, "Two", List.of(shared));
        create(author, "Three", List.of(hidden));
        author.api().post("/api/v1/articles/" + a + "/publish");
        author.api().post("/api/v1/articles/" + b + "/publish");

        var tags = anonymous.get("/api/v1/tags?search=" + shared).json();
        assertThat(tags.get("total").asLong()).isEqualTo(1);
        var tag = tags.get("items").get(0);
        assertThat(tag.get("slug").asText()).isEqualTo(shared);
        assertThat(tag.get("article_count").asLong()).isEqualTo(2);
        assertThat(anonymous.get("/api/v1/tags?search=" + hidden).json().get("total").asLong()).isZero();
    }
}
