package dev.atrium.content.boundary;

import java.util.Collection;
import java.util.Map;
import java.util.Set;

import dev.atrium.content.control.ArticleService;
import dev.atrium.content.entity.Article;
import dev.atrium.content.entity.Tag;
import dev.atrium.identity.control.UserSummary;

/** The relations an {@code expand} parameter asked for, loaded once for a whole page of articles. */
record Expansion(boolean tags, Map<Long, Long> tagCounts, Map<Long, UserSummary> authors) {

    static final Expansion NONE = new Expansion(false, Map.of(), null);

    static Expansion load(Set<String> expand, Collection<Article> articles, ArticleService service) {
        if (expand.isEmpty() || articles.isEmpty()) {
            return NONE;
        }
        boolean withTags = expand.contains("tags");
        return new Expansion(withTags, withTags ? service.tagCounts(articles) : Map.of(),
                expand.contains("author") ? service.authors(articles) : null);
    }

    long count(Tag tag) {
        return tagCounts.getOrDefault(tag.id(), 0L);
    }

    Object author(Article article) {
        if (authors == null) {
            return null;
        }
        UserSummary user = authors.get(article.authorId());
        return user == null ? null : AuthorView.from(user);
    }
}
