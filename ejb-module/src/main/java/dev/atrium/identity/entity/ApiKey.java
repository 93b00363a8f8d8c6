package dev.atrium.identity.entity;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A user's API key, known by its SHA-256 only; the key itself is shown once when issued. One per user. */
@Entity
@Table(name = "api_keys")
public class ApiKey {

    @Id
    @Column(name = "user_id")
    private Long userId;

    @Column(name = "key_hash", nullable = false, length = 64, unique = true)
    private String keyHash;

    @Column(name = "key_prefix", nullable = false, length = 12)
    private String keyPrefix;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected ApiKey() {
    }

    public ApiKey(long userId, String keyHash, String keyPrefix, Instant now) {
        this.userId = userId;
        replace(keyHash, keyPrefix, now);
    }

    /** A new key replaces the old one, which stops working at once. */
    public void replace(String newHash, String newPrefix, Instant now) {
        this.keyHash = newHash;
        this.keyPrefix = newPrefix;
        this.createdAt = now;
    }

    public long userId() {
        return userId;
    }

    public String keyPrefix() {
        return keyPrefix;
    }

    public Instant createdAt() {
        return createdAt;
    }
}
