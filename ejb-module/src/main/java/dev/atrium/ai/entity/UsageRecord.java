package dev.atrium.ai.entity;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * One billed model call: who, which model, through which channel ({@code chat}, {@code stream} (smart-stream's
 * streamed answers too), {@code websocket}, {@code task}), its tokens and its cost. The daily usage report is made
 * of these rows; they outlive the conversation, the task and the user they came from.
 */
@Entity
@Table(name = "usage_records")
public class UsageRecord {

    public static final Set<String> CHANNELS = Set.of("chat", "stream", "websocket", "task");

    @Id
    private UUID id;

    @Column(name = "user_id", nullable = false)
    private long userId;

    @Column(nullable = false, length = 50)
    private String model;

    @Column(nullable = false, length = 20)
    private String channel;

    @Column(name = "input_tokens", nullable = false)
    private int inputTokens;

    @Column(name = "output_tokens", nullable = false)
    private int outputTokens;

    @Column(nullable = false, precision = 12, scale = 6)
    private BigDecimal cost;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected UsageRecord() {
    }

    public UsageRecord(long userId, String model, String channel, int inputTokens, int outputTokens,
                       BigDecimal cost, Instant now) {
        if (!CHANNELS.contains(channel)) {
            throw new IllegalArgumentException("Unknown usage channel " + channel);
        }
        if (inputTokens < 0 || outputTokens < 0 || cost.signum() < 0) {
            throw new IllegalArgumentException("Usage is never negative");
        }
        this.id = UUID.randomUUID();
        this.userId = userId;
        this.model = model;
        this.channel = channel;
        this.inputTokens = inputTokens;
        this.outputTokens = outputTokens;
        this.cost = cost;
        this.createdAt = now;
    }

    public UUID id() {
        return id;
    }

    public long userId() {
        return userId;
    }

    public String model() {
        return model;
    }

    public String channel() {
        return channel;
    }

    public int inputTokens() {
        return inputTokens;
    }

    public int outputTokens() {
        return outputTokens;
    }

    public BigDecimal cost() {
        return cost;
    }

    public Instant createdAt() {
        return createdAt;
    }
}
