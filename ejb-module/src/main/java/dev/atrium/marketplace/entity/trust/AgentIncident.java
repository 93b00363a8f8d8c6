package dev.atrium.marketplace.entity.trust;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/**
 * A security incident on record for an agent: a contained hostile behaviour, a high-risk finding, a takedown by
 * security reports. It demotes the agent to {@code unverified} and blocks the automatic promotion for good.
 */
@Entity
@Table(name = "agent_incidents")
public class AgentIncident {

    public static final int CODE_MAX = 40;
    public static final int REASON_MAX = 4000;

    @Id
    @SequenceGenerator(name = "agent_incidents_seq", sequenceName = "agent_incidents_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "agent_incidents_seq")
    private Long id;

    @Column(name = "agent_id", nullable = false)
    private UUID agentId;

    @Column(nullable = false, length = CODE_MAX)
    private String code;

    @Column(nullable = false, length = REASON_MAX)
    private String reason;

    @Column(name = "actor_id", nullable = false)
    private long actorId;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected AgentIncident() {
    }

    /** Code and reason are cut to their columns: an incident must be recorded whatever its text. */
    public AgentIncident(UUID agentId, String code, String reason, long actorId, Instant now) {
        if (agentId == null || code == null || code.isBlank()) {
            throw new IllegalArgumentException("an incident needs an agent and a code");
        }
        this.agentId = agentId;
        this.code = cut(code.strip(), CODE_MAX);
        this.reason = cut(reason == null || reason.isBlank() ? this.code : reason, REASON_MAX);
        this.actorId = actorId;
        this.createdAt = now;
    }

    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max);
    }

    public Long id() {
        return id;
    }

    public UUID agentId() {
        return agentId;
    }

    public String code() {
        return code;
    }

    public String reason() {
        return reason;
    }

    public long actorId() {
        return actorId;
    }

    public Instant createdAt() {
        return createdAt;
    }
}
