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

import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentAction;
import dev.atrium.marketplace.entity.AgentReport;
import dev.atrium.marketplace.entity.ReportReason;
import dev.atrium.marketplace.entity.TakedownReason;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/**
 * Users' security reports. A listed agent reported by {@value #TAKEDOWN_REPORTS} distinct users since it was last
 * approved is taken down in the same transaction ({@code suspended}, reason {@code security_reports}, by the
 * platform) and the takedown is a security incident (trust back to unverified, an alert). Reports of one agent are
 * serialized on its row, so concurrent reports cannot both miss the threshold.
 */
@Stateless
public class ReportService {

    private static final Logger LOG = Logger.getLogger(ReportService.class.getName());

    public static final int TAKEDOWN_REPORTS = 3;

    static final Catalog<AgentReport> REPORTS = Catalog.of(AgentReport.class)
            .id("id", UUID.class)
            .createdAt("createdAt")
            .filterable("reason", "reason", ReportReason.class)
            .filterable("user_id", "userId", Long.class);

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    ReviewService reviews;

    @EJB
    TrustService trust;

    @Inject
    Clock clock;

    /** 404 unless the agent is listed; 403 for its author; 409 for a second report by the same user. */
    public AgentReport report(UUID agentId, long userId, ReportReason reason, String details) {
        Agent agent = em.find(Agent.class, agentId, LockModeType.PESSIMISTIC_WRITE);
        if (agent == null || !agent.isActive()) {
            throw BusinessException.notFound("Agent");
        }
        var report = new AgentReport(agent, userId, reason, details, clock.instant());
        if (reported(agentId, userId)) {
            throw BusinessException.conflict("You have reported this agent already");
        }
        em.persist(report);
        em.flush();
        long reporters = reportersSinceListed(agent);
        if (reporters >= TAKEDOWN_REPORTS) {
            String why = reporters + " users reported security problems";
            reviews.takeDown(agentId, TrustService.PLATFORM, TakedownReason.SECURITY_REPORTS, why);
            trust.incident(agentId, TakedownReason.SECURITY_REPORTS.value(), why);
            LOG.warning(() -> "Agent " + agentId + " taken down: " + why);
        }
        return report;
    }

    /** The agent's reports for administrators; 404 for an unknown agent. */
    public Listing<AgentReport> list(UUID agentId, ListQuery query) {
        if (em.find(Agent.class, agentId) == null) {
            throw BusinessException.notFound("Agent");
        }
        return new EntityQuery<>(em, REPORTS).list(query, (cb, q, root) -> cb.equal(root.get("agentId"), agentId));
    }

    private boolean reported(UUID agentId, long userId) {
        return !em.createQuery("SELECT r.id FROM AgentReport r WHERE r.agentId = :agent AND r.userId = :user",
                        UUID.class)
                .setParameter("agent", agentId).setParameter("user", userId).setMaxResults(1).getResultList()
                .isEmpty();
    }

    /**
     * Distinct reporters since the agent was last approved, so that a fixed and re-reviewed version starts afresh
     * instead of being taken down again by the next single report.
     */
    private long reportersSinceListed(Agent agent) {
        // not MAX(): an aggregate comes back as the driver's type, past the attribute's converter
        Instant listed = em.createQuery("SELECT e.createdAt FROM AgentEvent e WHERE e.agentId = :agent "
                        + "AND e.action = :approved ORDER BY e.createdAt DESC", Instant.class)
                .setParameter("agent", agent.id()).setParameter("approved", AgentAction.APPROVED)
                .setMaxResults(1).getResultStream().findFirst().orElse(null);
        var query = em.createQuery("SELECT COUNT(DISTINCT r.userId) FROM AgentReport r WHERE r.agentId = :agent"
                + (listed == null ? "" : " AND r.createdAt >= :listed"), Long.class)
                .setParameter("agent", agent.id());
        if (listed != null) {
            query.setParameter("listed", listed);
        }
        return query.getSingleResult();
    }
}
