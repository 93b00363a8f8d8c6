package dev.atrium.content.entity;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

import dev.atrium.platform.error.BusinessException;

/** A reader's comment on an article; removed with its article. */
@Entity
@Table(name = "comments")
public class Comment {

    public static final int BODY_MAX = 5000;

    @Id
    @SequenceGenerator(name = "comments_seq", sequenceName = "comments_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "comments_seq")
    private Long id;

    @Column(name = "article_id", nullable = false)
    private long articleId;

    @Column(name = "author_id", nullable = false)
    private long authorId;

    @Column(nullable = false, length = BODY_MAX)
    private String body;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected Comment() {
    }

    public Comment(long articleId, long authorId, String body, Instant now) {
        if (body == null || body.isBlank()) {
            throw BusinessException.validation("body: must not be blank");
        }
        if (body.length() > BODY_MAX) {
            throw BusinessException.validation("body: must be at most " + BODY_MAX + " characters");
        }
        this.articleId = articleId;
        this.authorId = authorId;
        this.body = body;
        this.createdAt = now;
    }

    public Long id() {
        return id;
    }

    public long articleId() {
        return articleId;
    }

    public long authorId() {
        return authorId;
    }

    public String body() {
        return body;
    }

    public Instant createdAt() {
        return createdAt;
    }
}
