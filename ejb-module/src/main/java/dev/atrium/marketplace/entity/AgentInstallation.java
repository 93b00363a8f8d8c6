package dev.atrium.marketplace.entity;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A user's installation of an agent: one row per user and agent for good. Uninstalling marks it
 * ({@code uninstalledAt}) rather than deleting it, so installing again reuses the row and the agent's
 * {@code downloads}, which counts distinct users who ever installed, is not counted twice.
 */
@Entity
@Table(name = "agent_installations")
public class AgentInstallation {

    @Id
    private UUID id;

    @Column(name = "agent_id", nullable = false, updatable = false)
    private UUID agentId;

    @Column(name = "user_id", nullable = false, updatable = false)
    private long userId;

    @Column(name = "installed_at", nullable = false)
    private Instant installedAt;

    @Column(name = "uninstalled_at")
    private Instant uninstalledAt;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    protected AgentInstallation() {
    }

    public AgentInstallation(UUID agentId, long userId, Instant now) {
        this.id = UUID.randomUUID();
        this.agentId = agentId;
        this.userId = userId;
        this.installedAt = now;
        this.createdAt = now;
    }

    public boolean installed() {
        return uninstalledAt == null;
    }

    /** Installed again after an uninstall: a new installation time on the same row. */
    public void reinstall(Instant now) {
        this.installedAt = now;
        this.uninstalledAt = null;
    }

    public void uninstall(Instant now) {
        this.uninstalledAt = now;
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

    public Instant installedAt() {
        return installedAt;
    }

    public Instant createdAt() {
        return createdAt;
    }
}
