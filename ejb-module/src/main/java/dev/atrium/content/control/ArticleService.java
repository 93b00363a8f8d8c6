package dev.atrium.content.control;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.criteria.Join;
import jakarta.persistence.criteria.Root;
import jakarta.persistence.criteria.Subquery;

import dev.atrium.content.entity.Article;
import dev.atrium.content.entity.ArticleStatus;
import dev.atrium.content.entity.Slugs;
import dev.atrium.content.entity.Tag;
import dev.atrium.identity.control.UserService;
import dev.atrium.identity.control.UserSummary;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.persistence.Constraints;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;
import dev.atrium.platform.query.Values;

/**
 * Articles: drafting, editing, publishing, deleting and listing. Drafts are visible to their author only;
 * the author or an administrator may change an article.
 */
@Stateless
public class ArticleService {

    public static final int BATCH_MAX = 100;

    static final Catalog<Article> CATALOG = Catalog.of(Article.class)
            .id("id", Long.class)
            .createdAt("createdAt")
            .filterable("author_id", "authorId", Long.class)
            .filterable("status", "status", ArticleStatus.class)
            .filterable("slug", "slug", String.class)
            .sortable("updated_at", "updatedAt", Instant.class, true)
            .sortable("published_at", "publishedAt", Instant.class, false)
            .sortable("title", "title", String.class, true)
            .filter("published", (cb, q, root, values) -> {
                var wanted = values.stream().map(v -> Values.bool("published", v)).distinct().toList();
                return wanted.size() > 1 ? cb.conjunction()
                        : cb.equal(root.get("status"), wanted.get(0) ? ArticleStatus.PUBLISHED : ArticleStatus.DRAFT);
            })
            .filter("tag", (cb, q, root, values) -> {
                Subquery<Long> tagged = q.subquery(Long.class);
                Root<Article> article = tagged.from(Article.class);
                Join<Article, Tag> tag = article.join("tags");
                tagged.select(article.<Long>get("id")).where(tag.get("slug").in(values.stream()
                        .map(v -> Slugs.of(v, 60, "tag")).toList()));
                return root.get("id").in(tagged);
            })
            .search("title", "body");

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    TagService tags;

    @EJB
    UserService users;

    @Inject
    Clock clock;

    @Inject
    ArticlesVersion version;

    public Article create(long authorId, ArticleDraft draft) {
        var now = clock.instant();
        Article article = Article.draft(authorId, draft.title(), uniqueSlug(draft.title()), draft.body(),
                draft.summary(), now);
        article.retag(tags.resolve(draft.tags()), now);
        if (!Constraints.persistUnique(em, article)) {
            throw BusinessException.conflict("Another article took this slug at the same moment; try again");
        }
        version.changedAfterCommit();
        return article;
    }

    /** All or nothing: one invalid item rejects the batch and names its index. */
    public List<Article> createAll(long authorId, List<ArticleDraft> drafts) {
        checkBatchSize(drafts.size());
        var created = new ArrayList<Article>();
        for (int i = 0; i < drafts.size(); i++) {
            int index = i;
            created.add(inItem(index, () -> create(authorId, drafts.get(index))));
        }
        return created;
    }

    /** The article if the viewer may see it; a draft of someone else is "not found", not "forbidden". */
    public Article get(long id, Viewer viewer) {
        Article article = em.find(Article.class, id);
        if (article == null || !article.isVisibleTo(viewer.userId())) {
            throw BusinessException.notFound("Article");
        }
        return article;
    }

    public Listing<Article> list(ListQuery query, Viewer viewer) {
        if (query.ids().size() > BATCH_MAX) {
            throw BusinessException.validation("ids: at most " + BATCH_MAX + " ids");
        }
        return new EntityQuery<>(em, CATALOG)
                .hint("eclipselink.batch", "a.tags")
                .hint("eclipselink.batch.type", "IN")
                .list(query, (cb, q, root) -> viewer.isAnonymous()
                        ? cb.equal(root.get("status"), ArticleStatus.PUBLISHED)
                        : cb.or(cb.equal(root.get("status"), ArticleStatus.PUBLISHED),
                                cb.equal(root.get("authorId"), viewer.userId())));
    }

    public Article update(long id, Viewer viewer, ArticleChanges changes) {
        Article article = changeable(id, viewer);
        var now = clock.instant();
        changes.title().ifPresent(v -> article.retitle(v, now));
        changes.body().ifPresent(v -> article.rewrite(v, now));
        changes.summary().ifPresent(v -> article.summarize(v, now));
        changes.tags().ifPresent(v -> article.retag(tags.resolve(v == null ? List.of() : v), now));
        version.changedAfterCommit();
        return article;
    }

    public List<Article> updateAll(Viewer viewer, List<ArticleChanges> changes) {
        checkBatchSize(changes.size());
        var updated = new ArrayList<Article>();
        for (int i = 0; i < changes.size(); i++) {
            int index = i;
            ArticleChanges c = changes.get(index);
            if (c.id() == null) {
                throw BusinessException.validation("items[" + index + "].id: is required");
            }
            updated.add(inItem(index, () -> update(c.id(), viewer, c)));
        }
        return updated;
    }

    public Article publish(long id, Viewer viewer) {
        Article article = changeable(id, viewer);
        article.publish(clock.instant());
        version.changedAfterCommit();
        return article;
    }

    public void delete(long id, Viewer viewer) {
        em.remove(changeable(id, viewer));
        version.changedAfterCommit();
    }

    public void deleteAll(Viewer viewer, List<Long> ids) {
        checkBatchSize(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            int index = i;
            inItem(index, () -> {
                delete(ids.get(index), viewer);
                return null;
            });
        }
    }

    /** Authors of the given articles by id, for {@code expand=author}. */
    public Map<Long, UserSummary> authors(Collection<Article> articles) {
        return users.summaries(articles.stream().map(Article::authorId).distinct().toList());
    }

    /** Published-article counts of the tags on these articles, for {@code expand=tags}. */
    public Map<Long, Long> tagCounts(Collection<Article> articles) {
        var ids = articles.stream().flatMap(a -> a.tags().stream()).map(Tag::id).distinct().toList();
        return new HashMap<>(tags.publishedCounts(ids));
    }

    private Article changeable(long id, Viewer viewer) {
        Article article = em.find(Article.class, id);
        if (article == null || (!article.isVisibleTo(viewer.userId()) && !viewer.admin())) {
            throw BusinessException.notFound("Article");
        }
        if (!article.isAuthor(viewer.userId()) && !viewer.admin()) {
            throw BusinessException.forbidden("Only the author or an administrator may change this article");
        }
        return article;
    }

    private String uniqueSlug(String title) {
        String base = Slugs.of(title, 200, "article");
        List<String> taken = em.createQuery(
                        "select a.slug from Article a where a.slug = :base or a.slug like :numbered", String.class)
                .setParameter("base", base)
                .setParameter("numbered", base + "-%")
                .getResultList();
        if (!taken.contains(base)) {
            return base;
        }
        int next = 2;
        for (String slug : taken) {
            String suffix = slug.substring(Math.min(slug.length(), base.length() + 1));
            if (suffix.matches("\\d{1,9}")) {
                next = Math.max(next, Integer.parseInt(suffix) + 1);
            }
        }
        return base + "-" + next;
    }

    private static void checkBatchSize(int size) {
        if (size == 0 || size > BATCH_MAX) {
            throw BusinessException.validation("A batch holds 1 to " + BATCH_MAX + " items");
        }
    }

    private static <T> T inItem(int index, Supplier<T> work) {
        try {
            return work.get();
        } catch (BusinessException e) {
            String where = "items[" + index + "]";
            String details = e.details() == null ? where + ": " + e.getMessage() : where + "." + e.details();
            throw new BusinessException(e.problem(), e.getMessage(), details, e.headers());
        }
    }
}
