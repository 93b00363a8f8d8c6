package dev.atrium.marketplace.control.trust;

import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.identity.control.UserService;
import dev.atrium.identity.control.login.AlertService;
import dev.atrium.marketplace.control.AgentChanges;
import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentAction;
import dev.atrium.marketplace.entity.AgentEvent;
import dev.atrium.marketplace.entity.TrustLevel;
import dev.atrium.marketplace.entity.trust.AgentIncident;
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
    public static final long PLATFORM = 0;

    /** The alert kind raised for an incident, subject {@code agent:<id>}. */
    public static final String ALERT_KIND = "agent_incident";

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    AgentChanges changes;

    @EJB
    AlertService alerts;

    @EJB
    UserService users;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperties
    MarketplaceConfig config;

    /**
     * Promotes the agent to community when it has earned it ({@link PromotionRule}); does nothing otherwise (unknown
     * agent included). Meant to be called after every recorded usage and review: the usual answer costs one
     * primary-key read (an agent without enough calls or reviews stops there); only then are the successful calls
     * counted per caller in one aggregate query, the callers' verified state asked of identity by id, the incidents
     * looked at and the row lock taken.
     */
    public void reconsider(UUID agentId) {
        // a scalar read sees the database as this transaction left it (a counter raised by an UPDATE included)
        Object[] row = em.createQuery("SELECT a.trustLevel, a.totalCalls, a.avgRatingExact, a.reviewCount, "
                        + "a.authorId FROM Agent a WHERE a.id = :id", Object[].class)
                .setParameter("id", agentId).getResultStream().findFirst().orElse(null);
        if (row == null || row[0] != TrustLevel.UNVERIFIED) {
            return;
        }
        PromotionRule rule = rule();
        double rating = ((Number) row[2]).doubleValue();
        long reviews = ((Number) row[3]).longValue();
        if (!rule.possible(((Number) row[1]).longValue(), reviews, rating)) {
            return;
        }
        var counted = strangersCalls(agentId, ((Number) row[4]).longValue());
        var figures = new PromotionRule.Figures(counted[0], counted[1], reviews, rating, 0);
        if (!rule.earned(figures) || incidents(agentId) > 0) {
            return;
        }
        Agent agent = em.find(Agent.class, agentId, LockModeType.PESSIMISTIC_WRITE);
        if (agent == null || !agent.earnCommunity()) {
            return;
        }
        record(agent, AgentAction.TRUST_CHANGED, PLATFORM, code(TrustLevel.UNVERIFIED, TrustLevel.COMMUNITY),
                PromotionRule.because(figures));
        long calls = figures.calls();
        long callers = figures.callers();
        LOG.info(() -> "Agent " + agentId + " promoted to community after " + calls + " calls by " + callers
                + " callers");
    }

    /** The promotion rule with this deployment's figures. */
    PromotionRule rule() {
        return new PromotionRule(config.trustMinCalls, config.trustMinDistinctCallers, config.trustMinReviews);
    }

    /**
     * Successful calls of the agent by verified callers other than its author, and how many such callers: {calls,
     * callers}. The calls are grouped by caller in the database; whether a caller is verified is identity's answer.
     */
    private long[] strangersCalls(UUID agentId, long authorId) {
        Map<Long, Long> byCaller = new HashMap<>();
        em.createQuery("SELECT u.userId, COUNT(u) FROM AgentUsage u WHERE u.agentId = :agent AND u.succeeded = TRUE "
                        + "AND u.userId <> :author GROUP BY u.userId", Object[].class)
                .setParameter("agent", agentId).setParameter("author", authorId).getResultStream()
                .forEach(r -> byCaller.put(((Number) r[0]).longValue(), ((Number) r[1]).longValue()));
        if (byCaller.isEmpty()) {
            return new long[] {0, 0};
        }
        Set<Long> verified = users.verified(byCaller.keySet());
        return new long[] {verified.stream().mapToLong(c -> byCaller.getOrDefault(c, 0L)).sum(), verified.size()};
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
        return Optional.ofNullable(em.find(Agent.class, id, LockModeType.PESSIMISTIC_WRITE))
                .orElseThrow(() -> BusinessException.notFound("Agent"));
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
