package dev.atrium.content.entity;

import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.JoinTable;
import jakarta.persistence.ManyToMany;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import dev.atrium.platform.error.BusinessException;

/**
 * A blog article. Created as a draft, visible to its author only until published; the slug is fixed at creation
 * so links to it stay valid when the title changes.
 */
@Entity
@Table(name = "articles")
public class Article {

    public static final int TITLE_MAX = 200;
    public static final int BODY_MAX = 100_000;
    public static final int SUMMARY_MAX = 500;
    public static final int TAGS_MAX = 10;

    @Id
    @SequenceGenerator(name = "articles_seq", sequenceName = "articles_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "articles_seq")
    private Long id;

    @Column(nullable = false, length = TITLE_MAX)
    private String title;

    @Column(nullable = false, length = 220, unique = true)
    private String slug;

    @Column(nullable = false, length = BODY_MAX)
    private String body;

    @Column(length = SUMMARY_MAX)
    private String summary;

    @Column(name = "author_id", nullable = false)
    private long authorId;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 20)
    private ArticleStatus status;

    @Column(name = "published_at")
    private Instant publishedAt;

    @ManyToMany
    @JoinTable(name = "article_tags",
            joinColumns = @JoinColumn(name = "article_id"),
            inverseJoinColumns = @JoinColumn(name = "tag_id"))
    private Set<Tag> tags = new LinkedHashSet<>();

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    @Version
    private long version;

    protected Article() {
    }

    private Article(long authorId, String title, String slug, String body, String summary, Instant now) {
        this.authorId = authorId;
        this.title = checkedTitle(title);
        this.slug = slug;
        this.body = checkedBody(body);
        this.summary = checkedSummary(summary);
        this.status = ArticleStatus.DRAFT;
        this.createdAt = now;
        this.updatedAt = now;
    }

    public static Article draft(long authorId, String title, String slug, String body, String summary,
                                Instant now) {
        return new Article(authorId, title, slug, body, summary, now);
    }

    public boolean isPublished() {
        return status == ArticleStatus.PUBLISHED;
    }

    /** Published articles are public; drafts are seen by their author only. */
    public boolean isVisibleTo(Long userId) {
        return isPublished() || (userId != null && userId == authorId);
    }

    public boolean isAuthor(Long userId) {
        return userId != null && userId == authorId;
    }

    /** Publishing a published article changes nothing, so a repeated action is harmless. */
    public void publish(Instant now) {
        if (status != ArticleStatus.PUBLISHED) {
            status = ArticleStatus.PUBLISHED;
            publishedAt = now;
            updatedAt = now;
        }
    }

    public void retitle(String newTitle, Instant now) {
        this.title = checkedTitle(newTitle);
        this.updatedAt = now;
    }

    public void rewrite(String newBody, Instant now) {
        this.body = checkedBody(newBody);
        this.updatedAt = now;
    }

    public void summarize(String newSummary, Instant now) {
        this.summary = checkedSummary(newSummary);
        this.updatedAt = now;
    }

    public void retag(Set<Tag> newTags, Instant now) {
        if (newTags.size() > TAGS_MAX) {
            throw BusinessException.validation("tags: at most " + TAGS_MAX + " tags");
        }
        this.tags = new LinkedHashSet<>(newTags);
        this.updatedAt = now;
    }

    private static String checkedTitle(String value) {
        if (value == null || value.isBlank()) {
            throw BusinessException.validation("title: must not be blank");
        }
        if (value.length() > TITLE_MAX) {
            throw BusinessException.validation("title: must be at most " + TITLE_MAX + " characters");
        }
        return value.strip();
    }

    private static String checkedBody(String value) {
        if (value == null || value.isBlank()) {
            throw BusinessException.validation("body: must not be blank");
        }
        if (value.length() > BODY_MAX) {
            throw BusinessException.validation("body: must be at most " + BODY_MAX + " characters");
        }
        return value;
    }

    private static String checkedSummary(String value) {
        if (value != null && value.length() > SUMMARY_MAX) {
            throw BusinessException.validation("summary: must be at most " + SUMMARY_MAX + " characters");
        }
        return value;
    }

    public Long id() {
        return id;
    }

    public String title() {
        return title;
    }

    public String slug() {
        return slug;
    }

    public String body() {
        return body;
    }

    public String summary() {
        return summary;
    }

    public long authorId() {
        return authorId;
    }

    public ArticleStatus status() {
        return status;
    }

    public Instant publishedAt() {
        return publishedAt;
    }

    /** Tags in name order, for stable output. */
    public List<Tag> tags() {
        return tags.stream().sorted(Comparator.comparing(Tag::slug)).toList();
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant updatedAt() {
        return updatedAt;
    }
}
