package dev.atrium.marketplace.entity.trust;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import dev.atrium.marketplace.entity.Agent;
import dev.atrium.platform.error.BusinessException;

/** A user's report of a security problem with a listed agent: one per user per agent, never by its author. */
@Entity
@Table(name = "agent_reports")
public class AgentReport {

    @Id
    private UUID id;

    @Column(name = "agent_id", nullable = false)
    private UUID agentId;

    @Column(name = "user_id", nullable = false)
    private long userId;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 40)
    private ReportReason reason;

    @Column(nullable = false, length = 4000)
    private String details;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected AgentReport() {
    }

    /** A report of this listed agent; its author cannot report it (403). */
    public AgentReport(Agent agent, long userId, ReportReason reason, String details, Instant now) {
        if (agent.isAuthor(userId)) {
            throw BusinessException.forbidden("You cannot report your own agent");
        }
        this.id = UUID.randomUUID();
        this.agentId = agent.id();
        this.userId = userId;
        this.reason = reason;
        this.details = details;
        this.createdAt = now;
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

    public ReportReason reason() {
        return reason;
    }

    public String details() {
        return details;
    }

    public Instant createdAt() {
        return createdAt;
    }
}
