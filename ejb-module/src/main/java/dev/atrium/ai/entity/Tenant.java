package dev.atrium.ai.entity;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A user's tier in the AI backend; users without a row are on the free tier. */
@Entity
@Table(name = "ai_tenants")
public class Tenant {

    @Id
    @Column(name = "user_id")
    private Long userId;

    @Column(nullable = false, length = 20)
    private String tier;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected Tenant() {
    }

    public Tenant(long userId, Tier tier, Instant now) {
        this.userId = userId;
        this.tier = tier.value();
        this.updatedAt = now;
    }

    public void changeTier(Tier newTier, Instant now) {
        this.tier = newTier.value();
        this.updatedAt = now;
    }

    public long userId() {
        return userId;
    }

    public Tier tier() {
        return Tier.of(tier);
    }
}
