package dev.atrium.marketplace.entity;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import dev.atrium.marketplace.entity.checks.SmokeStatus;
import dev.atrium.marketplace.entity.quality.QualityScore;
import dev.atrium.marketplace.entity.quality.RankingScore;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.persistence.NullableUuidConverter;

import org.eclipse.persistence.annotations.Convert;
import org.eclipse.persistence.annotations.Converter;

/**
 * The agent record of spec 03: identity, status, counters and ranking, the spec's listing fields copied from the
 * version it shows, which version serves ({@code current}) and the rollout of the next one ({@code candidate}).
 * Cards, bundles and embeddings live on the {@link AgentVersion} rows. The status moves only through the methods
 * below: submitted as {@code pending}; its first approved version lists it ({@code active}, searchable), or it is
 * rejected; a listed agent is taken down to {@code suspended}. A new version of a listed agent is reviewed and rolled
 * out while the current one keeps serving; a new version of any other agent brings it back to {@code pending}.
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

    /** The listed price: the card's {@code pricing.price_usd}, 0 without pricing; what price filters compare. */
    @Column(name = "price_usd", nullable = false, precision = 19, scale = 6)
    private BigDecimal priceUsd;

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

    @Column(name = "current_version_id")
    @Converter(name = NullableUuidConverter.NAME,
            converterClass = NullableUuidConverter.class)
    @Convert(NullableUuidConverter.NAME)
    private UUID currentVersionId;

    @Column(name = "candidate_version_id")
    @Convert(NullableUuidConverter.NAME)
    private UUID candidateVersionId;

    @Enumerated(EnumType.STRING)
    @Column(name = "rollout_state", nullable = false, length = 20)
    private RolloutState rolloutState;

    @Column(name = "rollout_percent", nullable = false)
    private int rolloutPercent;

    @Column(name = "rollout_step_at")
    private Instant rolloutStepAt;

    @Column(name = "avg_rating_exact", nullable = false)
    private double avgRatingExact;

    @Column(name = "review_count", nullable = false)
    private int reviewCount;

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
        this.rolloutState = RolloutState.NONE;
        // the card's self-declared score is never taken: neutral until the quality job measures calls
        this.qualityScore = QualityScore.NEUTRAL;
        this.createdAt = now;
    }

    /** A new agent, pending review of its first version. Trust is granted by the platform, never taken from the card. */
    public static Agent submitted(UUID id, long authorId, AgentCard card, SmokeStatus smoke, Instant now) {
        var agent = new Agent(id, authorId, now);
        agent.list(card, smoke, now);
        agent.status = AgentStatus.PENDING;
        return agent;
    }

    /**
     * A new version from the author went to review. It must be higher than the version listed. A listed agent keeps
     * serving and stays searchable with its current version meanwhile; any other agent shows the new version and
     * waits for its review ({@code pending}). Answers the status the agent had.
     */
    public AgentStatus newVersion(AgentCard newCard, SmokeStatus smoke, Instant now) {
        if (newCard.version().compareTo(version()) <= 0) {
            throw BusinessException.conflict("version: " + newCard.version() + " must be higher than the current "
                    + semanticVersion);
        }
        AgentStatus before = status;
        if (status != AgentStatus.ACTIVE) {
            list(newCard, smoke, now);
            this.status = AgentStatus.PENDING;
        }
        return before;
    }

    /** The spec's listing fields, copied from the card of the version the agent shows. */
    private void list(AgentCard c, SmokeStatus smoke, Instant now) {
        this.name = c.name();
        this.displayName = c.displayName();
        this.description = c.description();
        this.semanticVersion = c.version().toString();
        this.card = c.json();
        this.capabilities = JsonText.array(c.capabilities());
        this.pricing = c.pricingJson();
        this.priceUsd = Pricing.money(Pricing.of(pricing).priceUsd());
        this.dockerImage = c.dockerImage();
        this.category = c.category();
        this.smokeStatus = smoke;
        touch(now);
    }

    /** What an approved version did to the agent. */
    public enum Approval {
        /** The agent was not serving: the version serves everyone at once and the agent is listed. */
        LISTED,
        /** The agent serves another version: the approved one starts its gradual rollout. */
        ROLLOUT_STARTED
    }

    /**
     * Review accepted a version. A pending agent is listed with it; a listed agent starts rolling it out (replacing
     * a rollout in progress), its current version serving the other callers. Approval never grants trust.
     */
    public Approval approve(AgentVersion version, AgentCard versionCard, Instant now) {
        requireOwn(version);
        if (status == AgentStatus.ACTIVE && currentVersionId != null) {
            this.candidateVersionId = version.id();
            this.rolloutState = RolloutState.ROLLING_OUT;
            this.rolloutPercent = FIRST_STEP_PERCENT;
            this.rolloutStepAt = now;
            this.updatedAt = now;
            return Approval.ROLLOUT_STARTED;
        }
        requireStatus(AgentStatus.PENDING, "approved");
        this.currentVersionId = version.id();
        clearRollout();
        list(versionCard, version.smokeStatus(), now);
        this.status = AgentStatus.ACTIVE;
        return Approval.LISTED;
    }

    /** The share of callers a rollout starts with. */
    public static final int FIRST_STEP_PERCENT = 10;

    /** The share of callers of the second step. */
    public static final int SECOND_STEP_PERCENT = 50;

    /** The rollout's next step: 10 % → 50 % of callers. The last step is {@link #completeRollout}. */
    public void advanceRollout(Instant now) {
        if (rolloutState != RolloutState.ROLLING_OUT || rolloutPercent != FIRST_STEP_PERCENT) {
            throw BusinessException.conflict("Only a rollout at " + FIRST_STEP_PERCENT + " % can advance to "
                    + SECOND_STEP_PERCENT + " %; this one is " + rolloutState.value() + " at " + rolloutPercent + " %");
        }
        this.rolloutPercent = SECOND_STEP_PERCENT;
        this.rolloutStepAt = now;
    }

    /** The candidate serves every caller and becomes the listed version. */
    public void completeRollout(AgentVersion candidate, AgentCard candidateCard, Instant now) {
        if (rolloutState == RolloutState.NONE || !candidate.id().equals(candidateVersionId)) {
            throw BusinessException.conflict("This version is not rolling out");
        }
        this.currentVersionId = candidate.id();
        clearRollout();
        list(candidateCard, candidate.smokeStatus(), now);
    }

    /** The candidate is dropped; the current version serves everyone again. Answers the dropped version's id. */
    public UUID rollBack(Instant now) {
        if (rolloutState == RolloutState.NONE) {
            throw BusinessException.conflict("No version is rolling out");
        }
        UUID dropped = candidateVersionId;
        clearRollout();
        this.updatedAt = now;
        return dropped;
    }

    /** The rollout holds its share of callers and does not advance until resumed. */
    public void pauseRollout(Instant now) {
        if (rolloutState != RolloutState.ROLLING_OUT) {
            throw BusinessException.conflict("Only a rollout in progress can be paused; this one is "
                    + rolloutState.value());
        }
        this.rolloutState = RolloutState.PAUSED;
    }

    /** A paused rollout goes on; its step starts over, so the full observation time is kept. */
    public void resumeRollout(Instant now) {
        if (rolloutState != RolloutState.PAUSED) {
            throw BusinessException.conflict("Only a paused rollout can be resumed; this one is "
                    + rolloutState.value());
        }
        this.rolloutState = RolloutState.ROLLING_OUT;
        this.rolloutStepAt = now;
    }

    private void clearRollout() {
        this.candidateVersionId = null;
        this.rolloutState = RolloutState.NONE;
        this.rolloutPercent = 0;
        this.rolloutStepAt = null;
    }

    private void requireOwn(AgentVersion version) {
        if (!version.agentId().equals(id)) {
            throw new IllegalArgumentException("Version " + version.id() + " is not one of agent " + id);
        }
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

    /**
     * Review turned a version down. A pending agent is rejected; a listed agent goes on serving its current version.
     * Answers the status it had.
     */
    public AgentStatus versionRejected(Instant now) {
        AgentStatus before = status;
        if (status == AgentStatus.ACTIVE) {
            return before;
        }
        requireStatus(AgentStatus.PENDING, "rejected");
        this.status = AgentStatus.REJECTED;
        touch(now);
        return before;
    }

    public void takeDown(Instant now) {
        requireStatus(AgentStatus.ACTIVE, "taken down");
        this.status = AgentStatus.SUSPENDED;
        touch(now);
    }

    /**
     * A reviewer lifts a takedown after reviewing it: the suspended agent is listed again with the version it served,
     * its trust level as it is. An agent that never served a version has nothing to be reinstated with (409).
     */
    public void reinstate(Instant now) {
        requireStatus(AgentStatus.SUSPENDED, "reinstated");
        if (currentVersionId == null) {
            throw BusinessException.conflict("The agent has no approved version to serve; it needs a review of a "
                    + "new version");
        }
        this.status = AgentStatus.ACTIVE;
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

    /** The quality job's measure over its window; the ranking follows. */
    public void scored(double quality, Instant now) {
        if (quality < 0 || quality > QualityScore.CAP) {
            throw new IllegalArgumentException("A quality score is 0 to 5, not " + quality);
        }
        this.qualityScore = quality;
        refreshRanking(now);
    }

    /** Recomputes the ranking score, whose freshness part decays with time. */
    public void refreshRanking(Instant now) {
        this.rankingScore = RankingScore.of(qualityScore, totalCalls, avgRatingExact, updatedAt, now);
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

    /**
     * The reviews' figures after a review was written: the exact mean, and the spec's integer {@code avg_rating}
     * (the mean rounded half up; 0 without reviews). Ranking uses the exact mean.
     */
    public void rated(double mean, int reviews, Instant now) {
        if (reviews < 0 || reviews > 0 && (mean < 1 || mean > 5) || reviews == 0 && mean != 0) {
            throw new IllegalArgumentException("Impossible ratings: " + reviews + " averaging " + mean);
        }
        this.reviewCount = reviews;
        this.avgRatingExact = mean;
        this.avgRating = reviews == 0 ? 0 : (int) Math.floor(mean + 0.5);
        refreshRanking(now);
    }

    public boolean isAuthor(Long userId) {
        return userId != null && userId == authorId;
    }

    public boolean isActive() {
        return status == AgentStatus.ACTIVE;
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

    /**
     * A user installed the agent for the first time: {@code downloads} counts distinct users who ever installed it.
     * Called with the agent's row locked, so concurrent first installations each count once; not a change of the
     * listing, so {@code updated_at} (ranking's freshness) stays.
     */
    public void installedByNewUser() {
        downloads++;
    }

    public BigDecimal priceUsd() {
        return priceUsd;
    }

    public int avgRating() {
        return avgRating;
    }

    /** The exact mean of the reviews' ratings; 0 without reviews. */
    public double avgRatingExact() {
        return avgRatingExact;
    }

    public int reviewCount() {
        return reviewCount;
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

    /** The version serving callers and search; null before the first approval. */
    public UUID currentVersionId() {
        return currentVersionId;
    }

    /** The version rolling out, or null. */
    public UUID candidateVersionId() {
        return candidateVersionId;
    }

    public RolloutState rolloutState() {
        return rolloutState;
    }

    /** The share of callers the candidate serves; 0 without a rollout. */
    public int rolloutPercent() {
        return rolloutPercent;
    }

    /** When the rollout's current step began; null without a rollout. */
    public Instant rolloutStepAt() {
        return rolloutStepAt;
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
