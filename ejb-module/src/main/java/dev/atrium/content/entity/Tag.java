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

/** A label on articles, known by its slug; created the first time an article uses its name. */
@Entity
@Table(name = "tags")
public class Tag {

    public static final int NAME_MAX = 50;

    @Id
    @SequenceGenerator(name = "tags_seq", sequenceName = "tags_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "tags_seq")
    private Long id;

    @Column(nullable = false, length = NAME_MAX)
    private String name;

    @Column(nullable = false, length = 60, unique = true)
    private String slug;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected Tag() {
    }

    public Tag(String name, Instant now) {
        this.name = checkedName(name);
        this.slug = slugOf(this.name);
        this.createdAt = now;
    }

    public static String slugOf(String name) {
        return Slugs.of(checkedName(name), 60, "tag");
    }

    private static String checkedName(String name) {
        if (name == null || name.isBlank()) {
            throw BusinessException.validation("tags: a tag must not be blank");
        }
        String trimmed = name.strip();
        if (trimmed.length() > NAME_MAX) {
            throw BusinessException.validation("tags: a tag must be at most " + NAME_MAX + " characters");
        }
        return trimmed;
    }

    public Long id() {
        return id;
    }

    public String name() {
        return name;
    }

    public String slug() {
        return slug;
    }

    public Instant createdAt() {
        return createdAt;
    }
}
