package dev.atrium.content.boundary;

import java.time.Instant;
import java.util.Map;

import dev.atrium.content.entity.Comment;

/** A comment as the API shows it. */
public record CommentView(long id, long articleId, long authorId, String body, Instant createdAt,
                          Map<String, String> _links) {

    static CommentView from(Comment c) {
        return new CommentView(c.id(), c.articleId(), c.authorId(), c.body(), c.createdAt(),
                Map.of("self", "/api/v1/comments/" + c.id(), "article", ArticleView.BASE + c.articleId()));
    }
}
