package dev.atrium.ai.entity;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import dev.atrium.platform.error.BusinessException;

/** One message of a conversation with its token count and cost (spec 02). */
@Entity
@Table(name = "messages")
public class Message {

    static final Set<String> ROLES = Set.of("user", "assistant", "system");

    @Id
    private UUID id;

    @Column(name = "conversation_id", nullable = false)
    private UUID conversationId;

    @Column(nullable = false, length = 20)
    private String role;

    @Column(nullable = false)
    private String content;

    @Column(name = "token_count", nullable = false)
    private int tokenCount;

    @Column(nullable = false, precision = 10, scale = 6)
    private BigDecimal cost;

    @Column(length = 50)
    private String model;

    @Column(nullable = false)
    private String metadata;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected Message() {
    }

    public Message(UUID id, UUID conversationId, String role, String content, int tokenCount, BigDecimal cost,
                   String model, String metadata, Instant now) {
        if (!ROLES.contains(role)) {
            throw BusinessException.validation("role: user, assistant or system");
        }
        this.id = id;
        this.conversationId = conversationId;
        this.role = role;
        this.content = content == null ? "" : content;
        this.tokenCount = Math.max(0, tokenCount);
        this.cost = cost == null ? BigDecimal.ZERO : cost;
        this.model = model;
        this.metadata = metadata == null ? "{}" : metadata;
        this.createdAt = now;
    }

    /** The prompt's own tokens and price, known only once the model has counted them. */
    public void account(int tokens, BigDecimal price) {
        this.tokenCount = Math.max(0, tokens);
        this.cost = price;
    }

    public UUID id() {
        return id;
    }

    public UUID conversationId() {
        return conversationId;
    }

    public String role() {
        return role;
    }

    public String content() {
        return content;
    }

    public int tokenCount() {
        return tokenCount;
    }

    public BigDecimal cost() {
        return cost;
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
}
