package dev.atrium.ai.entity;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A chat conversation of one user (spec 02). Its messages are deleted with it. */
@Entity
@Table(name = "conversations")
public class Conversation {

    public static final String PLACEHOLDER_TITLE = "New conversation";

    @Id
    private UUID id;

    @Column(name = "user_id", nullable = false)
    private long userId;

    @Column(nullable = false, length = 200)
    private String title;

    @Column(nullable = false, length = 50)
    private String model;

    @Column(nullable = false)
    private String metadata;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected Conversation() {
    }

    public Conversation(long userId, String model, Instant now) {
        this(UUID.randomUUID(), userId, model, now);
    }

    /** A conversation under an id chosen beforehand (a streamed turn names it before it is stored). */
    public Conversation(UUID id, long userId, String model, Instant now) {
        this.id = id;
        this.userId = userId;
        this.title = PLACEHOLDER_TITLE;
        this.model = model;
        this.metadata = "{}";
        this.createdAt = now;
        this.updatedAt = now;
    }

    public boolean ownedBy(long user) {
        return userId == user;
    }

    public void touch(Instant now) {
        this.updatedAt = now;
    }

    public UUID id() {
        return id;
    }

    public long userId() {
        return userId;
    }

    public String title() {
        return title;
    }

    public String model() {
        return model;
    }

    public String metadata() {
        return metadata;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant updatedAt() {
        return updatedAt;
    }
}
