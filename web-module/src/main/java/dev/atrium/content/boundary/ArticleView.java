package dev.atrium.content.boundary;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.json.bind.annotation.JsonbNillable;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.content.entity.Article;
import dev.atrium.content.entity.Tag;

/**
 * An article as the API shows it. Relations are identifiers by default: {@code author_id}, and {@code tags} as
 * slugs; {@code expand=author} adds {@code author}, {@code expand=tags} turns {@code tags} into tag objects.
 */
public record ArticleView(
        long id,
        String title,
        String slug,
        String body,
        String summary,
        long authorId,
        @Schema(enumeration = {"draft", "published"}) String status,
        Instant publishedAt,
        @Schema(description = "Tag slugs, or tag objects with expand=tags") List<Object> tags,
        // typed Object: Yasson 3.0 honours @JsonbNillable(false) only on properties of such simple types
        @JsonbNillable(false) @Schema(implementation = AuthorView.class, description = "Only with expand=author")
        Object author,
        Instant createdAt,
        Instant updatedAt,
        Map<String, String> _links) {

    static final String BASE = "/api/v1/articles/";

    static ArticleView from(Article a, Expansion expansion) {
        List<Object> tags = expansion.tags()
                ? a.tags().stream().<Object>map(t -> TagView.from(t, expansion.count(t))).toList()
                : a.tags().stream().<Object>map(Tag::slug).toList();
        var links = new LinkedHashMap<String, String>();
        links.put("self", BASE + a.id());
        links.put("comments", BASE + a.id() + "/comments");
        if (!a.isPublished()) {
            links.put("publish", BASE + a.id() + "/publish");
        }
        return new ArticleView(a.id(), a.title(), a.slug(), a.body(), a.summary(), a.authorId(),
                a.status().name().toLowerCase(Locale.ROOT), a.publishedAt(), tags, expansion.author(a), a.createdAt(),
                a.updatedAt(), links);
    }
}
