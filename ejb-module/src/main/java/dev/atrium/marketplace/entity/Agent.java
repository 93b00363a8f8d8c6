package dev.atrium.marketplace.entity;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import dev.atrium.platform.error.BusinessException;

/**
 * The agent record of spec 03. It always describes the newest submitted version; its status moves only through the
 * methods below: submitted as {@code pending}; approved to {@code active} (searchable) or rejected; an active agent
 * is taken down to {@code suspended}; a new, higher version from its author brings any status back to
 * {@code pending} for review.
 */
@Entity
@Table(name = "agents")
public class Agent {

    @Id
    private UUID id;

    @Column(nullable = false, length = 64, unique = true)
    private String name;

    @Column(name = "display_name", nullable = false, length = 120)
    private String displayName;

    @Column(name = "author_id", nullable = false)
    private long authorId;

    @Column(nullable = false, length = 4000)
    private String description;

    @Column(name = "version", nullable = false, length = 64)
    private String semanticVersion;

    @Column(name = "agent_card", nullable = false, length = 200_000)
    private String card;

    @Column(nullable = false, length = 10_000)
    private String capabilities;

    @Column(length = 4000)
    private String pricing;

    @Enumerated(EnumType.STRING)
    @Column(name = "trust_level", nullable = false, length = 20)
    private TrustLevel trustLevel;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 20)
    private AgentStatus status;

    @Column(nullable = false)
    private long downloads;

    @Column(name = "avg_rating", nullable = false)
    private int avgRating;

    @Column(name = "docker_image", length = 300)
    private String dockerImage;

    @Column(nullable = false, length = 64)
    private String category;

    @Column(name = "quality_score", nullable = false)
    private double qualityScore;

    @Column(name = "total_calls", nullable = false)
    private long totalCalls;

    @Column(name = "ranking_score", nullable = false)
    private double rankingScore;

    @Column(name = "embedding")
    private byte[] embedding;

    @Column(name = "embedding_model", length = 60)
    private String embeddingModel;

    @Column(name = "bundle_key", length = 300)
    private String bundleKey;

    @Column(name = "bundle_size")
    private Long bundleSize;

    @Enumerated(EnumType.STRING)
    @Column(name = "smoke_status", nullable = false, length = 20)
    private SmokeStatus smokeStatus;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    @Version
    @Column(name = "row_version")
    private long rowVersion;

    protected Agent() {
    }

    private Agent(UUID id, long authorId, Instant now) {
        this.id = id;
        this.authorId = authorId;
        this.trustLevel = TrustLevel.UNVERIFIED;
        this.createdAt = now;
    }

    /** A new agent, pending review. Trust is granted by the platform, never taken from the card. */
    public static Agent submitted(UUID id, long authorId, AgentCard card, StoredBundle bundle, SmokeStatus smoke,
                                  float[] embedding, String model, Instant now) {
        var agent = new Agent(id, authorId, now);
        agent.take(card, bundle, smoke, embedding, model, now);
        return agent;
    }

    /**
     * A new version from the author: it must be higher than the current one, and goes to review whatever the
     * status was. Answers the status the agent had.
     */
    public AgentStatus resubmit(AgentCard newCard, StoredBundle bundle, SmokeStatus smoke, float[] vector,
                                String model, Instant now) {
        if (newCard.version().compareTo(version()) <= 0) {
            throw BusinessException.conflict("version: " + newCard.version() + " must be higher than the current "
                    + semanticVersion);
        }
        AgentStatus before = status;
        take(newCard, bundle, smoke, vector, model, now);
        return before;
    }

    private void take(AgentCard c, StoredBundle bundle, SmokeStatus smoke, float[] vector, String model, Instant now) {
        this.name = c.name();
        this.displayName = c.displayName();
        this.description = c.description();
        this.semanticVersion = c.version().toString();
        this.card = c.json();
        this.capabilities = JsonText.array(c.capabilities());
        this.pricing = c.pricingJson();
        this.dockerImage = c.dockerImage();
        this.category = c.category();
        this.qualityScore = c.qualityScore();
        this.bundleKey = bundle == null ? null : bundle.key();
        this.bundleSize = bundle == null ? null : bundle.size();
        this.smokeStatus = smoke;
        this.embedding = toBytes(vector);
        this.embeddingModel = model;
        this.status = AgentStatus.PENDING;
        touch(now);
    }

    /** Review accepted it: listed and searchable. Approval never grants trust; the level stays as it is. */
    public void approve(Instant now) {
        requireStatus(AgentStatus.PENDING, "approved");
        this.status = AgentStatus.ACTIVE;
        touch(now);
    }

    /**
     * The automatic promotion unverified → community, once {@code PromotionRule} says it was earned. Answers false
     * (and changes nothing) when the agent is no longer unverified, so that callers may ask again and again.
     */
    public boolean earnCommunity() {
        if (trustLevel != TrustLevel.UNVERIFIED) {
            return false;
        }
        this.trustLevel = TrustLevel.COMMUNITY;
        return true;
    }

    /**
     * An administrator's move after an audit: one step up at a time (unverified → community → official; the spec's
     * path to official goes through community), or down to any lower level. Answers the level it had.
     */
    public TrustLevel changeTrust(TrustLevel to) {
        if (to == null) {
            throw BusinessException.validation("level: required");
        }
        TrustLevel from = trustLevel;
        if (to == from) {
            throw BusinessException.conflict("The agent is " + from.value() + " already");
        }
        if (to.ordinal() > from.ordinal() + 1) {
            throw BusinessException.conflict("An " + from.value() + " agent cannot become " + to.value()
                    + " directly: it must be community first");
        }
        this.trustLevel = to;
        return from;
    }

    /** A security incident: back to unverified whatever the level was. Answers the level it had. */
    public TrustLevel demote() {
        TrustLevel from = trustLevel;
        this.trustLevel = TrustLevel.UNVERIFIED;
        return from;
    }

    public void reject(Instant now) {
        requireStatus(AgentStatus.PENDING, "rejected");
        this.status = AgentStatus.REJECTED;
        touch(now);
    }

    public void takeDown(Instant now) {
        requireStatus(AgentStatus.ACTIVE, "taken down");
        this.status = AgentStatus.SUSPENDED;
        touch(now);
    }

    /**
     * Suspends a pending or listed agent whose author's account was deleted; answers the status it had, or null when
     * it was already suspended or rejected (nothing changes then).
     */
    public AgentStatus suspendForDeletedAuthor(Instant now) {
        if (status != AgentStatus.PENDING && status != AgentStatus.ACTIVE) {
            return null;
        }
        AgentStatus before = status;
        this.status = AgentStatus.SUSPENDED;
        touch(now);
        return before;
    }

    /**
     * A re-scan found something high-risk: a pending or listed agent is suspended. Answers the status it had, or null
     * when it was already suspended or rejected (nothing changes then).
     */
    public AgentStatus suspendForFinding(Instant now) {
        if (status != AgentStatus.PENDING && status != AgentStatus.ACTIVE) {
            return null;
        }
        AgentStatus before = status;
        this.status = AgentStatus.SUSPENDED;
        touch(now);
        return before;
    }

    /** Recomputes the ranking score, whose freshness part decays with time. */
    public void refreshRanking(Instant now) {
        this.rankingScore = RankingScore.of(qualityScore, totalCalls, avgRating, updatedAt, now);
    }

    /** A new embedding of the same text, for example after the model changed. */
    public void reembed(float[] vector, String model) {
        this.embedding = toBytes(vector);
        this.embeddingModel = model;
    }

    private void touch(Instant now) {
        this.updatedAt = now;
        refreshRanking(now);
    }

    private void requireStatus(AgentStatus expected, String move) {
        if (status != expected) {
            throw BusinessException.conflict("Only a " + expected.value() + " agent can be " + move
                    + "; this one is " + status.value());
        }
    }

    public boolean isAuthor(Long userId) {
        return userId != null && userId == authorId;
    }

    public boolean isActive() {
        return status == AgentStatus.ACTIVE;
    }

    private static byte[] toBytes(float[] vector) {
        if (vector == null) {
            return null;
        }
        var buffer = ByteBuffer.allocate(vector.length * Float.BYTES);
        buffer.asFloatBuffer().put(vector);
        return buffer.array();
    }

    /** The stored capability embedding, or null when none was computed. */
    public float[] embedding() {
        if (embedding == null) {
            return null;
        }
        var floats = new float[embedding.length / Float.BYTES];
        ByteBuffer.wrap(embedding).asFloatBuffer().get(floats);
        return floats;
    }

    public String embeddingModel() {
        return embeddingModel;
    }

    public UUID id() {
        return id;
    }

    public String name() {
        return name;
    }

    public String displayName() {
        return displayName;
    }

    public long authorId() {
        return authorId;
    }

    public String description() {
        return description;
    }

    public SemanticVersion version() {
        return SemanticVersion.parse(semanticVersion);
    }

    public String cardJson() {
        return card;
    }

    public String capabilitiesJson() {
        return capabilities;
    }

    public String pricingJson() {
        return pricing;
    }

    public TrustLevel trustLevel() {
        return trustLevel;
    }

    public AgentStatus status() {
        return status;
    }

    public long downloads() {
        return downloads;
    }

    public int avgRating() {
        return avgRating;
    }

    public String dockerImage() {
        return dockerImage;
    }

    public String category() {
        return category;
    }

    public double qualityScore() {
        return qualityScore;
    }

    public long totalCalls() {
        return totalCalls;
    }

    public double rankingScore() {
        return rankingScore;
    }

    public String bundleKey() {
        return bundleKey;
    }

    public Long bundleSize() {
        return bundleSize;
    }

    public SmokeStatus smokeStatus() {
        return smokeStatus;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant updatedAt() {
        return updatedAt;
    }
}
