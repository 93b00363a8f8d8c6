package dev.atrium.marketplace.entity;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** One move in an agent's history: what happened, from which status to which, who did it, when and why. */
@Entity
@Table(name = "agent_events")
public class AgentEvent {

    @Id
    @SequenceGenerator(name = "agent_events_seq", sequenceName = "agent_events_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "agent_events_seq")
    private Long id;

    @Column(name = "agent_id", nullable = false)
    private UUID agentId;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 20)
    private AgentAction action;

    @Enumerated(EnumType.STRING)
    @Column(name = "from_status", length = 20)
    private AgentStatus fromStatus;

    @Enumerated(EnumType.STRING)
    @Column(name = "to_status", nullable = false, length = 20)
    private AgentStatus toStatus;

    @Column(name = "version", nullable = false, length = 64)
    private String agentVersion;

    @Column(name = "actor_id", nullable = false)
    private long actorId;

    @Column(name = "reason_code", length = 40)
    private String reasonCode;

    @Column(length = 4000)
    private String reason;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected AgentEvent() {
    }

    public AgentEvent(Agent agent, AgentAction action, AgentStatus fromStatus, long actorId, String reasonCode,
                      String reason, Instant now) {
        this(agent, agent.version().toString(), action, fromStatus, actorId, reasonCode, reason, now);
    }

    /** A move about one version of the agent, which need not be the version it shows (a new one, a candidate). */
    public AgentEvent(Agent agent, String version, AgentAction action, AgentStatus fromStatus, long actorId,
                      String reasonCode, String reason, Instant now) {
        this.agentId = agent.id();
        this.action = action;
        this.fromStatus = fromStatus;
        this.toStatus = agent.status();
        this.agentVersion = version;
        this.actorId = actorId;
        this.reasonCode = reasonCode;
        this.reason = reason;
        this.createdAt = now;
    }

    public Long id() {
        return id;
    }

    public UUID agentId() {
        return agentId;
    }

    public AgentAction action() {
        return action;
    }

    public AgentStatus fromStatus() {
        return fromStatus;
    }

    public AgentStatus toStatus() {
        return toStatus;
    }

    public String agentVersion() {
        return agentVersion;
    }

    public long actorId() {
        return actorId;
    }

    public String reasonCode() {
        return reasonCode;
    }

    public String reason() {
        return reason;
    }

    public Instant createdAt() {
        return createdAt;
    }
}
