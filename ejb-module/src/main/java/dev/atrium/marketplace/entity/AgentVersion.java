package dev.atrium.marketplace.entity;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import dev.atrium.marketplace.entity.checks.SafetyReport;
import dev.atrium.marketplace.entity.checks.SmokeStatus;
import dev.atrium.platform.error.BusinessException;

/**
 * One version of an agent, as its author submitted it: the card and bundle, the capability embedding, the pre-listing
 * checks and the review decision ({@link SubmissionStatus}: pending review, approved, rejected, or superseded by a
 * newer submission before its review). Which approved version serves whom is the agent's business. Submissions
 * rejected at validation are answered, not stored.
 */
@Entity
@Table(name = "agent_versions")
public class AgentVersion {

    @Id
    private UUID id;

    @Column(name = "agent_id", nullable = false)
    private UUID agentId;

    @Column(name = "author_id", nullable = false)
    private long authorId;

    @Column(nullable = false, length = 64)
    private String name;

    @Column(name = "version", nullable = false, length = 64)
    private String semanticVersion;

    @Column(name = "agent_card", nullable = false, length = 200_000)
    private String card;

    @Column(name = "bundle_key", length = 300)
    private String bundleKey;

    @Column(name = "bundle_size")
    private Long bundleSize;

    @Enumerated(EnumType.STRING)
    @Column(name = "smoke_status", nullable = false, length = 20)
    private SmokeStatus smokeStatus;

    @Column(name = "smoke_detail", length = 500)
    private String smokeDetail;

    @Column(name = "checks", length = 400_000)
    private String checks;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 20)
    private SubmissionStatus status;

    @Column(name = "review_due_at", nullable = false)
    private Instant reviewDueAt;

    @Column(name = "decided_at")
    private Instant decidedAt;

    @Column(name = "decided_by")
    private Long decidedBy;

    @Column(name = "decision_note", length = 4000)
    private String decisionNote;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "embedding")
    private byte[] embedding;

    @Column(name = "embedding_model", length = 60)
    private String embeddingModel;

    @Column(name = "capability_embeddings")
    private byte[] capabilityEmbeddings;

    @Column(name = "rolled_back_at")
    private Instant rolledBackAt;

    protected AgentVersion() {
    }

    public AgentVersion(UUID agentId, long authorId, AgentCard card, StoredBundle bundle, SmokeStatus smoke,
                        String smokeDetail, float[] embedding, String embeddingModel, Duration reviewWithin,
                        Instant now) {
        this.id = UUID.randomUUID();
        this.agentId = agentId;
        this.authorId = authorId;
        this.name = card.name();
        this.semanticVersion = card.version().toString();
        this.card = card.json();
        this.bundleKey = bundle == null ? null : bundle.key();
        this.bundleSize = bundle == null ? null : bundle.size();
        this.smokeStatus = smoke;
        this.smokeDetail = smokeDetail == null || smokeDetail.length() <= 500 ? smokeDetail
                : smokeDetail.substring(0, 499) + "…";
        this.status = SubmissionStatus.PENDING_REVIEW;
        this.reviewDueAt = now.plus(reviewWithin);
        this.createdAt = now;
        embed(embedding, embeddingModel);
    }

    /**
     * A detached copy holding only what never changes once a version is submitted (id, agent, author, name, number,
     * card, bundle) and its status as of now: what the invoke gateway keeps per version, without the checks' report
     * and the embeddings.
     */
    public AgentVersion servingCopy() {
        var copy = new AgentVersion();
        copy.id = id;
        copy.agentId = agentId;
        copy.authorId = authorId;
        copy.name = name;
        copy.semanticVersion = semanticVersion;
        copy.card = card;
        copy.bundleKey = bundleKey;
        copy.bundleSize = bundleSize;
        copy.smokeStatus = smokeStatus;
        copy.status = status;
        copy.reviewDueAt = reviewDueAt;
        copy.createdAt = createdAt;
        return copy;
    }

    /** The capability embedding of this version's card, by the named model. */
    public void embed(float[] vector, String model) {
        if (vector == null) {
            this.embedding = null;
        } else {
            var buffer = ByteBuffer.allocate(vector.length * Float.BYTES);
            buffer.asFloatBuffer().put(vector);
            this.embedding = buffer.array();
        }
        this.embeddingModel = model;
    }

    /**
     * The embeddings of the card's capabilities, in the card's order, by the model of {@link #embeddingModel()}: set
     * with the card's embedding, or later for versions stored before capabilities were embedded.
     */
    public void embedCapabilities(List<float[]> vectors) {
        if (vectors == null) {
            this.capabilityEmbeddings = null;
            return;
        }
        int dimension = vectors.isEmpty() ? 0 : vectors.get(0).length;
        var buffer = ByteBuffer.allocate(vectors.size() * dimension * Float.BYTES);
        for (float[] v : vectors) {
            if (v.length != dimension) {
                throw new IllegalArgumentException("capability embeddings differ in dimension");
            }
            for (float x : v) {
                buffer.putFloat(x);
            }
        }
        this.capabilityEmbeddings = buffer.array();
    }

    /**
     * The stored capability embeddings, one per capability of {@code capabilities} (the card's, in its order), when
     * they were computed by {@code model} for exactly that many; empty otherwise.
     */
    public Optional<Map<String, float[]>> capabilityEmbeddings(List<String> capabilities,
                                                                                 String model) {
        if (capabilityEmbeddings == null || !Objects.equals(model, embeddingModel)) {
            return Optional.empty();
        }
        if (capabilities.isEmpty()) {
            return capabilityEmbeddings.length == 0 ? Optional.of(Map.of())
                    : Optional.empty();
        }
        int floats = capabilityEmbeddings.length / Float.BYTES;
        if (floats == 0 || floats % capabilities.size() != 0) {
            return Optional.empty();
        }
        int dimension = floats / capabilities.size();
        var all = ByteBuffer.wrap(capabilityEmbeddings).asFloatBuffer();
        var vectors = new LinkedHashMap<String, float[]>();
        for (String c : capabilities) {
            float[] v = new float[dimension];
            all.get(v);
            vectors.putIfAbsent(c, v);
        }
        return Optional.of(Collections.unmodifiableMap(vectors));
    }

    /** A rollout dropped this version for its quality. */
    public void rolledBack(Instant now) {
        if (rolledBackAt == null) {
            rolledBackAt = now;
        }
    }

    /** The pre-listing checks' report, as the submission answer showed it. */
    public void recordChecks(SafetyReport report) {
        this.checks = report.toJson();
    }

    public void approve(long reviewer, String note, Instant now) {
        decide(SubmissionStatus.APPROVED, reviewer, note, now);
    }

    public void reject(long reviewer, String reasons, Instant now) {
        decide(SubmissionStatus.REJECTED, reviewer, reasons, now);
    }

    /** A newer version arrived before this one was reviewed. */
    public void supersede(Instant now) {
        if (status == SubmissionStatus.PENDING_REVIEW) {
            status = SubmissionStatus.SUPERSEDED;
            decidedAt = now;
        }
    }

    private void decide(SubmissionStatus outcome, long reviewer, String note, Instant now) {
        if (status != SubmissionStatus.PENDING_REVIEW) {
            throw BusinessException.conflict("The submission was already decided: " + status.value());
        }
        this.status = outcome;
        this.decidedBy = reviewer;
        this.decisionNote = note;
        this.decidedAt = now;
    }

    public UUID id() {
        return id;
    }

    public UUID agentId() {
        return agentId;
    }

    public long authorId() {
        return authorId;
    }

    public String name() {
        return name;
    }

    public String version() {
        return semanticVersion;
    }

    public String cardJson() {
        return card;
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

    public String smokeDetail() {
        return smokeDetail;
    }

    /** The pre-listing checks; none for submissions made before they existed. */
    public SafetyReport checks() {
        return SafetyReport.parse(checks);
    }

    public SubmissionStatus status() {
        return status;
    }

    public Instant reviewDueAt() {
        return reviewDueAt;
    }

    public Instant decidedAt() {
        return decidedAt;
    }

    public Long decidedBy() {
        return decidedBy;
    }

    public String decisionNote() {
        return decisionNote;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public SemanticVersion semanticVersion() {
        return SemanticVersion.parse(semanticVersion);
    }

    public boolean isApproved() {
        return status == SubmissionStatus.APPROVED;
    }

    /** When a rollout dropped it for its quality, or null. */
    public Instant rolledBackAt() {
        return rolledBackAt;
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
}
