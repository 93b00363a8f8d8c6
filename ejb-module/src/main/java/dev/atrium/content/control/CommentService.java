package dev.atrium.content.control;

import java.time.Clock;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.content.entity.Article;
import dev.atrium.content.entity.Comment;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/** Comments under articles one can see; removed by their author, the article's author or an administrator. */
@Stateless
public class CommentService {

    static final Catalog<Comment> CATALOG = Catalog.of(Comment.class)
            .id("id", Long.class)
            .filterable("author_id", "authorId", Long.class)
            .search("body");

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    ArticleService articles;

    @Inject
    Clock clock;

    public Comment add(long articleId, Viewer viewer, String body) {
        articles.get(articleId, viewer);
        var comment = new Comment(articleId, viewer.userId(), body, clock.instant());
        em.persist(comment);
        em.flush();
        return comment;
    }

    public Listing<Comment> list(long articleId, Viewer viewer, ListQuery query) {
        articles.get(articleId, viewer);
        return new EntityQuery<>(em, CATALOG)
                .list(query, (cb, q, root) -> cb.equal(root.get("articleId"), articleId));
    }

    public void delete(long commentId, Viewer viewer) {
        Comment comment = em.find(Comment.class, commentId);
        if (comment == null) {
            throw BusinessException.notFound("Comment");
        }
        Article article = em.find(Article.class, comment.articleId());
        boolean allowed = viewer.admin() || (viewer.userId() != null && viewer.userId() == comment.authorId())
                || (article != null && article.isAuthor(viewer.userId()));
        if (!allowed) {
            if (article == null || !article.isVisibleTo(viewer.userId())) {
                throw BusinessException.notFound("Comment");
            }
            throw BusinessException.forbidden(
                    "Only the comment's author, the article's author or an administrator may delete this comment");
        }
        em.remove(comment);
    }
}
