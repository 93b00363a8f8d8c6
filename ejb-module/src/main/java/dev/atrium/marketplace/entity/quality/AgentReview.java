package dev.atrium.marketplace.entity.quality;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import dev.atrium.platform.error.BusinessException;

/**
 * A user's review of an agent (spec 03's Review): a rating from 1 to 5 and a comment, with the reviewer's successful
 * uses when they wrote it and whether they really invoked (and, for a paid agent, paid for) it. One per user and
 * agent: writing again replaces rating and comment.
 */
@Entity
@Table(name = "agent_reviews")
public class AgentReview {

    public static final int MAX_COMMENT = 4000;
    /** The spec's review eligibility: at least this many uses. */
    public static final long MIN_USES = 3;

    @Id
    private UUID id;

    @Column(name = "agent_id", nullable = false)
    private UUID agentId;

    @Column(name = "user_id", nullable = false)
    private long userId;

    @Column(nullable = false)
    private int rating;

    @Column(nullable = false, length = MAX_COMMENT)
    private String comment;

    @Column(name = "usage_count", nullable = false)
    private long usageCount;

    @Column(name = "verified_purchase", nullable = false)
    private boolean verifiedPurchase;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected AgentReview() {
    }

    public AgentReview(UUID agentId, long userId, int rating, String comment, long usageCount,
                       boolean verifiedPurchase, Instant now) {
        this.id = UUID.randomUUID();
        this.agentId = agentId;
        this.userId = userId;
        this.createdAt = now;
        rewrite(rating, comment, usageCount, verifiedPurchase, now);
    }

    /** The reviewer writes again: the new rating and comment replace the old ones. */
    public void rewrite(int rating, String comment, long usageCount, boolean verifiedPurchase, Instant now) {
        if (rating < 1 || rating > 5) {
            throw BusinessException.validation("rating: an integer from 1 to 5");
        }
        if (comment == null || comment.length() > MAX_COMMENT) {
            throw BusinessException.validation("comment: at most " + MAX_COMMENT + " characters");
        }
        if (usageCount < MIN_USES) {
            throw new IllegalArgumentException("A review needs " + MIN_USES + " uses, not " + usageCount);
        }
        this.rating = rating;
        this.comment = comment;
        this.usageCount = usageCount;
        this.verifiedPurchase = verifiedPurchase;
        this.updatedAt = now;
    }

    public UUID id() {
        return id;
    }

    public UUID agentId() {
        return agentId;
    }

    public long userId() {
        return userId;
    }

    public int rating() {
        return rating;
    }

    public String comment() {
        return comment;
    }

    public long usageCount() {
        return usageCount;
    }

    public boolean verifiedPurchase() {
        return verifiedPurchase;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant updatedAt() {
        return updatedAt;
    }
}
