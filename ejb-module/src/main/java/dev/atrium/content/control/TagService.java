package dev.atrium.content.control;

import java.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.criteria.Join;
import jakarta.persistence.criteria.Root;
import jakarta.persistence.criteria.Subquery;

import dev.atrium.content.entity.Article;
import dev.atrium.content.entity.ArticleStatus;
import dev.atrium.content.entity.Tag;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;
import dev.atrium.platform.persistence.Constraints;

/** Tags: listing with article counts, and finding or creating tags by name for articles. */
@Stateless
public class TagService {

    static final Catalog<Tag> CATALOG = Catalog.of(Tag.class)
            .id("id", Long.class)
            .field("name", "name", String.class, true, true, true)
            .field("slug", "slug", String.class, true, true, true)
            .search("name");

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Clock clock;

    @EJB
    TagService self;

    /** Tags carried by at least one published article, so names used only in drafts stay private. */
    public Listing<TagCount> list(ListQuery query) {
        Listing<Tag> tags = new EntityQuery<>(em, CATALOG).list(query, (cb, q, root) -> {
            Subquery<Long> used = q.subquery(Long.class);
            Root<Article> article = used.from(Article.class);
            Join<Article, Tag> tag = article.join("tags");
            used.select(tag.<Long>get("id"))
                    .where(cb.equal(article.get("status"), ArticleStatus.PUBLISHED));
            return root.get("id").in(used);
        });
        Map<Long, Long> counts = publishedCounts(tags.items().stream().map(Tag::id).toList());
        return tags.map(t -> new TagCount(t, counts.getOrDefault(t.id(), 0L)));
    }

    public Map<Long, Long> publishedCounts(Collection<Long> tagIds) {
        if (tagIds.isEmpty()) {
            return Map.of();
        }
        var counts = new HashMap<Long, Long>();
        em.createQuery("select t.id, count(a) from Article a join a.tags t "
                        + "where a.status = :published and t.id in :ids group by t.id", Object[].class)
                .setParameter("published", ArticleStatus.PUBLISHED)
                .setParameter("ids", tagIds)
                .getResultList()
                .forEach(row -> counts.put((Long) row[0], (Long) row[1]));
        return counts;
    }

    /** The tags with these names, creating the missing ones; names equal by slug are one tag. */
    public Set<Tag> resolve(List<String> names) {
        var bySlug = new LinkedHashMap<String, String>();
        for (String name : names) {
            bySlug.putIfAbsent(Tag.slugOf(name), name);
        }
        if (bySlug.size() > Article.TAGS_MAX) {
            throw BusinessException.validation("tags: at most " + Article.TAGS_MAX + " tags");
        }
        var result = new LinkedHashSet<Tag>();
        bySlug.forEach((slug, name) -> result.add(find(slug).orElseGet(() -> {
            self.create(name);
            return find(slug).orElseThrow();
        })));
        return result;
    }

    private Optional<Tag> find(String slug) {
        return em.createQuery("select t from Tag t where t.slug = :slug", Tag.class)
                .setParameter("slug", slug).getResultStream().findFirst();
    }

    /** In its own transaction: when another request creates the same tag at the same moment, both go on. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void create(String name) {
        Constraints.persistUnique(em, new Tag(name, clock.instant()));
    }
}
