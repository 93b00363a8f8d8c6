package dev.atrium.marketplace.control;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentStatus;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.SubmissionStatus;
import dev.atrium.platform.error.BusinessException;

/** Reads of agents and their versions. */
@Stateless
public class AgentRepository {

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    public Optional<Agent> find(UUID id) {
        return Optional.ofNullable(em.find(Agent.class, id));
    }

    /** The agent, its row locked until the transaction ends; 404 when there is none. */
    public Agent locked(UUID id) {
        return Optional.ofNullable(em.find(Agent.class, id, LockModeType.PESSIMISTIC_WRITE))
                .orElseThrow(() -> BusinessException.notFound("Agent"));
    }

    public Optional<Agent> findByName(String name) {
        return em.createQuery("SELECT a FROM Agent a WHERE a.name = :name", Agent.class)
                .setParameter("name", name).getResultStream().findFirst();
    }

    /** The author's agents that count as published for the free tier: listed or waiting for review. */
    public long countPublished(long authorId) {
        return em.createQuery("SELECT COUNT(a) FROM Agent a WHERE a.authorId = :author AND a.status IN :statuses",
                        Long.class)
                .setParameter("author", authorId)
                .setParameter("statuses", List.of(AgentStatus.PENDING, AgentStatus.ACTIVE))
                .getSingleResult();
    }

    /** Active agents in id order, one slice at a time (to build the search index). */
    public List<Agent> active(UUID after, int limit) {
        var query = after == null
                ? em.createQuery("SELECT a FROM Agent a WHERE a.status = :status ORDER BY a.id", Agent.class)
                : em.createQuery("SELECT a FROM Agent a WHERE a.status = :status AND a.id > :after ORDER BY a.id",
                        Agent.class).setParameter("after", after);
        return query.setParameter("status", AgentStatus.ACTIVE).setMaxResults(limit).getResultList();
    }

    /** The ids of listed agents after {@code after} (null: from the first) in id order, at most {@code limit}. */
    public List<UUID> activeIds(UUID after, int limit) {
        var query = em.createQuery("SELECT a.id FROM Agent a WHERE a.status = :status"
                + (after == null ? "" : " AND a.id > :after") + " ORDER BY a.id", UUID.class);
        if (after != null) {
            query.setParameter("after", after);
        }
        return query.setParameter("status", AgentStatus.ACTIVE).setMaxResults(limit).getResultList();
    }

    /** These agents if active, in no particular order. */
    public List<Agent> activeAmong(Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return em.createQuery("SELECT a FROM Agent a WHERE a.id IN :ids AND a.status = :status", Agent.class)
                .setParameter("ids", ids).setParameter("status", AgentStatus.ACTIVE).getResultList();
    }

    public Optional<AgentVersion> pendingSubmission(UUID agentId) {
        return em.createQuery("SELECT s FROM AgentVersion s WHERE s.agentId = :agent AND s.status = :status "
                        + "ORDER BY s.createdAt DESC", AgentVersion.class)
                .setParameter("agent", agentId).setParameter("status", SubmissionStatus.PENDING_REVIEW)
                .getResultStream().findFirst();
    }

    public Optional<AgentVersion> version(UUID versionId) {
        return versionId == null ? Optional.empty() : Optional.ofNullable(em.find(AgentVersion.class, versionId));
    }

    /** The version serving the agent's callers and search, if it has one. */
    public Optional<AgentVersion> current(Agent agent) {
        return version(agent.currentVersionId());
    }

    /** These versions, in no particular order. */
    public List<AgentVersion> versions(Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return em.createQuery("SELECT v FROM AgentVersion v WHERE v.id IN :ids", AgentVersion.class)
                .setParameter("ids", ids).getResultList();
    }

    /** Every version of the agent, newest first. */
    public List<AgentVersion> versionsOf(UUID agentId) {
        return em.createQuery("SELECT v FROM AgentVersion v WHERE v.agentId = :agent ORDER BY v.createdAt DESC",
                        AgentVersion.class)
                .setParameter("agent", agentId).getResultList();
    }
}
