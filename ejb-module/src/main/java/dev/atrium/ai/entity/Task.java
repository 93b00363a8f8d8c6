package dev.atrium.ai.entity;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import dev.atrium.platform.error.BusinessException;

/**
 * One asynchronous generation a user submitted, and the record of it. It moves {@code submitted} → {@code running}
 * (→ {@code PROGRESS}) → {@code success} or {@code failure}; a failed attempt that will be retried goes back to
 * {@code submitted}. Every start of a worker is an attempt and gets its number; a worker may change the task only
 * while its attempt is the current one and the task is active, so a run that was abandoned (time limit) or
 * superseded (redelivery) can no longer touch it. A finished task never changes again and is kept until
 * {@code expiresAt}.
 */
@Entity
@Table(name = "tasks")
public class Task {

    public static final int PROMPT_MAX = 10_000;
    public static final int MODEL_MAX = 50;
    static final int ERROR_MAX = 1000;

    @Id
    private UUID id;

    @Column(name = "user_id", nullable = false)
    private long userId;

    @Column(nullable = false)
    private String prompt;

    @Column(nullable = false, length = MODEL_MAX)
    private String model;

    @Column(nullable = false, length = 20)
    private String status;

    @Column(length = 1000)
    private String progress;

    @Column(name = "result_content")
    private String resultContent;

    @Column(name = "input_tokens", nullable = false)
    private int inputTokens;

    @Column(name = "output_tokens", nullable = false)
    private int outputTokens;

    @Column(nullable = false, precision = 10, scale = 6)
    private BigDecimal cost = BigDecimal.ZERO;

    @Column(length = ERROR_MAX)
    private String error;

    @Column(nullable = false)
    private int attempts;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "started_at")
    private Instant startedAt;

    @Column(name = "finished_at")
    private Instant finishedAt;

    @Column(name = "expires_at")
    private Instant expiresAt;

    @Column(name = "conversation_id", length = 36)
    private String conversationId;

    @Column(name = "user_message_id", length = 36)
    private String userMessageId;

    @Column(name = "answer_message_id", length = 36)
    private String answerMessageId;

    protected Task() {
    }

    public Task(long userId, String prompt, String model, Instant now) {
        if (prompt == null || prompt.isBlank()) {
            throw BusinessException.validation("prompt: must not be blank");
        }
        if (prompt.length() > PROMPT_MAX) {
            throw BusinessException.validation("prompt: must be at most " + PROMPT_MAX + " characters");
        }
        if (model == null || model.isBlank() || model.length() > MODEL_MAX) {
            throw BusinessException.validation("model: must be a model identifier of 1 to " + MODEL_MAX
                    + " characters");
        }
        this.id = UUID.randomUUID();
        this.userId = userId;
        this.prompt = prompt;
        this.model = model;
        this.status = TaskStatus.SUBMITTED.value();
        this.createdAt = Objects.requireNonNull(now, "now");
    }

    /** Makes the task continue a conversation: its answer will be the message {@code answerMessageId} there. */
    public Task inConversation(UUID conversation, UUID userMessage, UUID answerMessage) {
        this.conversationId = Objects.requireNonNull(conversation, "conversation").toString();
        this.userMessageId = Objects.requireNonNull(userMessage, "userMessage").toString();
        this.answerMessageId = Objects.requireNonNull(answerMessage, "answerMessage").toString();
        return this;
    }

    public UUID conversationId() {
        return conversationId == null ? null : UUID.fromString(conversationId);
    }

    public UUID userMessageId() {
        return userMessageId == null ? null : UUID.fromString(userMessageId);
    }

    public UUID answerMessageId() {
        return answerMessageId == null ? null : UUID.fromString(answerMessageId);
    }

    /**
     * A worker takes the task: a new attempt, whose number is returned. A task that was running when its worker
     * went away (the message came again) is simply started again.
     */
    public int start(Instant now) {
        if (status().finished()) {
            throw new IllegalStateException("Task " + id + " is finished");
        }
        attempts++;
        status = TaskStatus.RUNNING.value();
        startedAt = Objects.requireNonNull(now, "now");
        progress = null;
        return attempts;
    }

    /** Shows how far the attempt got; ignored unless {@code attempt} is the current, active one. */
    public boolean reportProgress(int attempt, TaskProgress reached) {
        if (!current(attempt)) {
            return false;
        }
        status = TaskStatus.PROGRESS.value();
        progress = reached.json();
        return true;
    }

    /** The attempt produced the answer: the task is a success, readable until {@code now + retention}. */
    public boolean succeed(int attempt, String content, int input, int output, BigDecimal price, Instant now,
                           Duration retention) {
        if (!current(attempt)) {
            return false;
        }
        resultContent = Objects.requireNonNull(content, "content");
        error = null;
        finish(TaskStatus.SUCCESS, input, output, price, now, retention);
        return true;
    }

    /** The attempt failed for good: the task is a failure with {@code reason}, kept until {@code now + retention}. */
    public boolean fail(int attempt, String reason, int input, int output, BigDecimal price, Instant now,
                        Duration retention) {
        if (!current(attempt)) {
            return false;
        }
        error = text(reason);
        finish(TaskStatus.FAILURE, input, output, price, now, retention);
        return true;
    }

    /** The attempt failed and another will follow: back to {@code submitted}, remembering why. */
    public boolean retryLater(int attempt, String reason) {
        if (!current(attempt)) {
            return false;
        }
        status = TaskStatus.SUBMITTED.value();
        progress = null;
        error = text(reason);
        return true;
    }

    private boolean current(int attempt) {
        return attempt == attempts && status().active();
    }

    private void finish(TaskStatus outcome, int input, int output, BigDecimal price, Instant now,
                        Duration retention) {
        if (input < 0 || output < 0 || price.signum() < 0) {
            throw new IllegalArgumentException("Usage and cost cannot be negative");
        }
        status = outcome.value();
        progress = null;
        inputTokens = input;
        outputTokens = output;
        cost = price;
        finishedAt = Objects.requireNonNull(now, "now");
        expiresAt = now.plus(retention);
    }

    private static String text(String reason) {
        String value = reason == null || reason.isBlank() ? "unknown error" : reason;
        return value.length() > ERROR_MAX ? value.substring(0, ERROR_MAX) : value;
    }

    /** Past its retention: no longer shown, and deleted by the next cleanup. */
    public boolean expired(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    public boolean ownedBy(long user) {
        return userId == user;
    }

    public UUID id() {
        return id;
    }

    public long userId() {
        return userId;
    }

    public String prompt() {
        return prompt;
    }

    public String model() {
        return model;
    }

    public TaskStatus status() {
        return TaskStatus.of(status);
    }

    /** Set while the status is {@code PROGRESS}. */
    public TaskProgress progress() {
        return progress == null ? null : TaskProgress.parse(progress);
    }

    /** Set once the task is a success. */
    public String resultContent() {
        return resultContent;
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

    /** Why the task failed, or why the last attempt failed while a retry is pending. */
    public String error() {
        return error;
    }

    public int attempts() {
        return attempts;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant startedAt() {
        return startedAt;
    }

    public Instant finishedAt() {
        return finishedAt;
    }

    public Instant expiresAt() {
        return expiresAt;
    }
}
