package dev.atrium.marketplace.control;

import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import dev.atrium.identity.control.AlertService;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentAction;
import dev.atrium.marketplace.entity.AgentEvent;
import dev.atrium.marketplace.entity.AgentIncident;
import dev.atrium.marketplace.entity.TrustLevel;
import dev.atrium.platform.error.BusinessException;

/**
 * An agent's trust level after it is listed. Every agent starts {@code unverified} (approval grants nothing); it is
 * promoted to {@code community} automatically once {@link PromotionRule} says so, to {@code official} only by an
 * administrator after an audit; a security incident demotes it to {@code unverified}. Each change is an
 * {@code agent_events} row ({@code trust_changed}, reason code {@code <from>_to_<to>}) and reaches the search index.
 */
@Stateless
public class TrustService {

    private static final Logger LOG = Logger.getLogger(TrustService.class.getName());

    /** The actor of the platform's own moves. */
    static final long PLATFORM = 0;

    /** The alert kind raised for an incident, subject {@code agent:<id>}. */
    public static final String ALERT_KIND = "agent_incident";

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    AgentChanges changes;

    @EJB
    AlertService alerts;

    @Inject
    Clock clock;

    /**
     * Promotes the agent to community when it has earned it; does nothing otherwise (unknown agent included).
     * Meant to be called after every recorded usage: the usual answer costs one primary-key read, and only an
     * unverified agent past the call threshold looks at incidents and takes the row lock.
     */
    public void reconsider(UUID agentId) {
        // a scalar read sees the database as this transaction left it (a counter raised by an UPDATE included)
        Object[] figures = em.createQuery("SELECT a.trustLevel, a.totalCalls, a.avgRatingExact, a.reviewCount "
                        + "FROM Agent a "
                        + "WHERE a.id = :id", Object[].class)
                .setParameter("id", agentId).getResultStream().findFirst().orElse(null);
        if (figures == null || figures[0] != TrustLevel.UNVERIFIED
                || ((Number) figures[1]).longValue() < PromotionRule.MIN_CALLS) {
            return;
        }
        long calls = ((Number) figures[1]).longValue();
        double rating = ((Number) figures[2]).doubleValue();
        long reviews = ((Number) figures[3]).longValue();
        if (!PromotionRule.earned(calls, reviews, rating, incidents(agentId))) {
            return;
        }
        Agent agent = em.find(Agent.class, agentId, LockModeType.PESSIMISTIC_WRITE);
        if (agent == null || !agent.earnCommunity()) {
            return;
        }
        record(agent, AgentAction.TRUST_CHANGED, PLATFORM, code(TrustLevel.UNVERIFIED, TrustLevel.COMMUNITY),
                PromotionRule.because(calls, reviews, rating));
        LOG.info(() -> "Agent " + agentId + " promoted to community after " + calls + " calls");
    }

    /**
     * Records a security incident ({@code code} such as {@code contained_hostile_behaviour}, {@code high_risk_finding},
     * {@code security_reports}) by the platform, demotes the agent to unverified (a {@code trust_changed} entry when
     * its level changes; an {@code incident} entry always) and raises a security alert. 404 for an unknown agent.
     */
    public void incident(UUID agentId, String code, String reason) {
        incident(agentId, code, reason, PLATFORM);
    }

    public void incident(UUID agentId, String code, String reason, long actor) {
        Agent agent = locked(agentId);
        var incident = new AgentIncident(agentId, code, reason, actor, clock.instant());
        em.persist(incident);
        TrustLevel from = agent.demote();
        record(agent, AgentAction.INCIDENT, actor, incident.code(), incident.reason());
        if (from != TrustLevel.UNVERIFIED) {
            record(agent, AgentAction.TRUST_CHANGED, actor, code(from, TrustLevel.UNVERIFIED),
                    from.value() + " → unverified: security incident " + incident.code());
        }
        alert(agent, incident, from);
    }

    /**
     * An administrator's change after an audit (see {@link Agent#changeTrust}): community → official, a demotion, or
     * unverified → community (for example once an incident was cleared); unverified → official is 409.
     */
    public Agent change(UUID agentId, TrustLevel to, long admin, String note) {
        Agent agent = locked(agentId);
        TrustLevel from = agent.changeTrust(to);
        record(agent, AgentAction.TRUST_CHANGED, admin, code(from, to),
                from.value() + " → " + to.value() + ": " + note);
        return agent;
    }

    /** How many incidents the agent has on record. */
    public long incidents(UUID agentId) {
        return em.createQuery("SELECT COUNT(i) FROM AgentIncident i WHERE i.agentId = :id", Long.class)
                .setParameter("id", agentId).getSingleResult();
    }

    private Agent locked(UUID id) {
        Agent agent = em.find(Agent.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (agent == null) {
            throw BusinessException.notFound("Agent");
        }
        return agent;
    }

    static String code(TrustLevel from, TrustLevel to) {
        return from.value() + "_to_" + to.value();
    }

    private void record(Agent agent, AgentAction action, long actor, String code, String reason) {
        Instant now = clock.instant();
        em.persist(new AgentEvent(agent, action, agent.status(), actor, code, reason, now));
        changes.changed(agent);
    }

    /** An alert must never fail the incident that raised it (it runs in a transaction of its own). */
    private void alert(Agent agent, AgentIncident incident, TrustLevel from) {
        String details = "agent " + agent.name() + " (" + agent.id() + "): " + incident.code() + ", trust "
                + from.value() + " → unverified: " + incident.reason();
        LOG.warning(() -> "AGENT INCIDENT " + details);
        try {
            alerts.raise(ALERT_KIND, "agent:" + agent.id(), details.length() <= 500 ? details
                    : details.substring(0, 497) + "...");
        } catch (RuntimeException failed) {
            LOG.warning(() -> "The alert for the incident of agent " + agent.id() + " could not be raised: " + failed);
        }
    }
}
