package dev.atrium.marketplace.control.registry;

import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import dev.atrium.marketplace.control.Requester;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentInstallation;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/**
 * Users' installations of listed agents. Installing is idempotent per user: a second installation answers the first.
 * The agent's {@code downloads} counts distinct users who ever installed it; uninstalling does not lower it, and
 * installing again after an uninstall does not count again.
 */
@Stateless
public class InstallationService {

    static final Catalog<AgentInstallation> INSTALLATIONS = Catalog.of(AgentInstallation.class)
            .id("id", UUID.class)
            .createdAt("installedAt")
            .filterable("agent_id", "agentId", UUID.class)
            .sortable("installed_at", "installedAt", Instant.class, true);

    /** An installation, and whether this request made it (false: it was installed already). */
    public record Installed(AgentInstallation installation, boolean created) {
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Clock clock;

    /**
     * Installs a listed agent for the user. Unknown agents, and agents the user may not see, are 404; an agent the
     * user sees but that is not listed (their own pending one, a suspended one for a reviewer) is 409. The agent's row
     * is locked first, so concurrent installations of one agent are decided one after another: each user is counted
     * once, and a user's concurrent requests make one installation.
     */
    public Installed install(UUID agentId, Requester requester) {
        long userId = requester.userId();
        Agent agent = em.find(Agent.class, agentId, LockModeType.PESSIMISTIC_WRITE);
        if (agent == null || !agent.isActive() && !agent.isAuthor(userId) && !requester.reviewer()) {
            throw BusinessException.notFound("Agent");
        }
        if (!agent.isActive()) {
            throw BusinessException.conflict("Only listed agents can be installed; this one is "
                    + agent.status().value());
        }
        var now = clock.instant();
        var existing = find(agentId, userId);
        if (existing != null) {
            if (existing.installed()) {
                return new Installed(existing, false);
            }
            existing.reinstall(now);
            return new Installed(existing, true);
        }
        var installation = new AgentInstallation(agentId, userId, now);
        em.persist(installation);
        // SQL, not the entity: raising the agent's optimistic version would fail concurrent edits of it (a review,
        // a takedown), as UsageRecorder's total_calls does not either
        em.createNativeQuery("UPDATE agents SET downloads = downloads + 1 WHERE id = ?")
                .setParameter(1, agentId).executeUpdate();
        return new Installed(installation, true);
    }

    /** Uninstalls: 404 when the user has no installation of the agent (never had one, or uninstalled it already). */
    public void uninstall(UUID agentId, long userId) {
        var installation = em.createQuery("SELECT i FROM AgentInstallation i WHERE i.agentId = :agent "
                        + "AND i.userId = :user", AgentInstallation.class)
                .setParameter("agent", agentId).setParameter("user", userId)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE).getResultStream().findFirst()
                .filter(AgentInstallation::installed)
                .orElseThrow(() -> BusinessException.notFound("Installation"));
        installation.uninstall(clock.instant());
    }

    /** The user's current installations, newest first by default; agents that left the listing stay listed here. */
    public Listing<AgentInstallation> mine(long userId, ListQuery query) {
        return new EntityQuery<>(em, INSTALLATIONS).list(query, (cb, q, root) -> cb.and(
                cb.equal(root.get("userId"), userId), cb.isNull(root.get("uninstalledAt"))));
    }

    private AgentInstallation find(UUID agentId, long userId) {
        return em.createQuery("SELECT i FROM AgentInstallation i WHERE i.agentId = :agent AND i.userId = :user",
                        AgentInstallation.class)
                .setParameter("agent", agentId).setParameter("user", userId).getResultStream().findFirst()
                .orElse(null);
    }
}
