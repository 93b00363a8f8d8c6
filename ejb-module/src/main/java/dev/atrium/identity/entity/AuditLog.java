package dev.atrium.identity.entity;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** One security-relevant event (spec 01 AuditLog): who, what, from where, whether it succeeded, when. */
@Entity
@Table(name = "audit_logs")
public class AuditLog {

    @Id
    @SequenceGenerator(name = "audit_logs_seq", sequenceName = "audit_logs_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "audit_logs_seq")
    private Long id;

    @Column(name = "user_id")
    private Long userId;

    @Column(name = "actor_id")
    private Long actorId;

    @Column(nullable = false, length = 50)
    private String action;

    @Column(name = "ip_address", nullable = false, length = 45)
    private String ipAddress;

    @Column(name = "user_agent", nullable = false, length = 200)
    private String userAgent;

    @Column(nullable = false)
    private boolean success;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected AuditLog() {
    }

    public AuditLog(Long userId, Long actorId, String action, String ipAddress, String userAgent, boolean success,
                    Instant now) {
        this.userId = userId;
        this.actorId = actorId;
        this.action = cut(action, 50);
        this.ipAddress = cut(ipAddress == null ? "" : ipAddress, 45);
        this.userAgent = cut(userAgent == null ? "" : userAgent, 200);
        this.success = success;
        this.createdAt = now;
    }

    private static String cut(String value, int max) {
        return value.length() > max ? value.substring(0, max) : value;
    }

    public Long id() {
        return id;
    }

    public Long userId() {
        return userId;
    }

    public Long actorId() {
        return actorId;
    }

    public String action() {
        return action;
    }

    public String ipAddress() {
        return ipAddress;
    }

    public String userAgent() {
        return userAgent;
    }

    public boolean success() {
        return success;
    }

    public Instant createdAt() {
        return createdAt;
    }
}
