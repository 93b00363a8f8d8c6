package dev.atrium.marketplace.control.trust;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
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
import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.marketplace.control.submission.ReviewService;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentAction;
import dev.atrium.marketplace.entity.trust.AgentReport;
import dev.atrium.marketplace.entity.trust.ReportReason;
import dev.atrium.marketplace.entity.trust.TakedownReason;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.RateLimiter;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/**
 * Users' security reports. A report counts only from a verified user who called the agent successfully at least once
 * (anyone else is 403: three strangers must not take down what they never used), at most {@code per-hour} reports a
 * reporter an hour (429). A listed agent reported by {@value #TAKEDOWN_REPORTS} distinct users since it was last
 * approved or reinstated is suspended in the same transaction (reason {@code security_reports}, by the platform)
 * pending a reviewer's decision: its trust level is kept (reports are claims, not a proven incident) and the
 * administrators are alerted; a reviewer reinstates it ({@link ReviewService#reinstate}) or leaves it down. Reports of
 * one agent are serialized on its row, so concurrent reports cannot both miss the threshold.
 */
@Stateless
public class ReportService {

    private static final Logger LOG = Logger.getLogger(ReportService.class.getName());

    public static final int TAKEDOWN_REPORTS = 3;

    /** The alert raised when reports take an agent down, subject {@code agent:<id>}. */
    public static final String ALERT_KIND = "agent_reports";

    private static final Duration RATE_WINDOW = Duration.ofHours(1);

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
    UserService users;

    @EJB
    AlertService alerts;

    @Inject
    RateLimiter limiter;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperties
    MarketplaceConfig config;

    /**
     * 429 past the reporter's hourly limit; 404 unless the agent is listed; 403 for its author, for an unverified user
     * and for one who never called it successfully; 409 for a second report by the same user since the agent was
     * last approved or reinstated.
     */
    public AgentReport report(UUID agentId, long userId, ReportReason reason, String details) {
        var rate = limiter.hit("reports|" + userId, config.reportsPerHour, RATE_WINDOW);
        if (!rate.allowed()) {
            throw new BusinessException(Problem.RATE_LIMITED, "Too many security reports",
                    "At most " + config.reportsPerHour + " reports an hour per user; retry in "
                            + rate.retryAfterSeconds() + " s",
                    Map.of("Retry-After", Long.toString(rate.retryAfterSeconds())));
        }
        Agent agent = em.find(Agent.class, agentId, LockModeType.PESSIMISTIC_WRITE);
        if (agent == null || !agent.isActive()) {
            throw BusinessException.notFound("Agent");
        }
        var report = new AgentReport(agent, userId, reason, details, clock.instant());
        if (!users.verified(Set.of(userId)).contains(userId)) {
            throw BusinessException.forbidden("Only a verified account can report an agent");
        }
        if (!calledSuccessfully(agentId, userId)) {
            throw BusinessException.forbidden("Only users who have called this agent successfully can report it");
        }
        Instant since = countingSince(agentId);
        if (reported(agentId, userId, since)) {
            throw BusinessException.conflict("You have reported this agent already");
        }
        em.persist(report);
        em.flush();
        long reporters = reporters(agentId, since);
        if (reporters >= TAKEDOWN_REPORTS) {
            String why = reporters + " users who called the agent reported security problems; pending review";
            reviews.takeDown(agentId, TrustService.PLATFORM, TakedownReason.SECURITY_REPORTS, why);
            alert(agent, why);
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

    private boolean calledSuccessfully(UUID agentId, long userId) {
        return !em.createQuery("SELECT u.id FROM AgentUsage u WHERE u.agentId = :agent AND u.userId = :user "
                        + "AND u.succeeded = TRUE", UUID.class)
                .setParameter("agent", agentId).setParameter("user", userId).setMaxResults(1).getResultList()
                .isEmpty();
    }

    private boolean reported(UUID agentId, long userId, Instant since) {
        var query = em.createQuery("SELECT r.id FROM AgentReport r WHERE r.agentId = :agent AND r.userId = :user"
                        + (since == null ? "" : " AND r.createdAt >= :since"), UUID.class)
                .setParameter("agent", agentId).setParameter("user", userId);
        if (since != null) {
            query.setParameter("since", since);
        }
        return !query.setMaxResults(1).getResultList().isEmpty();
    }

    /**
     * When the agent was last approved or reinstated (null when never), since which reports count: a fixed and
     * re-reviewed version, or one a reviewer cleared, starts afresh instead of being taken down again by the next
     * single report.
     */
    private Instant countingSince(UUID agentId) {
        // not MAX(): an aggregate comes back as the driver's type, past the attribute's converter
        return em.createQuery("SELECT e.createdAt FROM AgentEvent e WHERE e.agentId = :agent "
                        + "AND e.action IN :fresh ORDER BY e.createdAt DESC", Instant.class)
                .setParameter("agent", agentId)
                .setParameter("fresh", List.of(AgentAction.APPROVED, AgentAction.REINSTATED))
                .setMaxResults(1).getResultStream().findFirst().orElse(null);
    }

    /** Distinct reporters since {@code since} (all of them when null). */
    private long reporters(UUID agentId, Instant since) {
        var query = em.createQuery("SELECT COUNT(DISTINCT r.userId) FROM AgentReport r WHERE r.agentId = :agent"
                + (since == null ? "" : " AND r.createdAt >= :since"), Long.class)
                .setParameter("agent", agentId);
        if (since != null) {
            query.setParameter("since", since);
        }
        return query.getSingleResult();
    }

    /** An alert must never fail the takedown that raised it (it runs in a transaction of its own). */
    private void alert(Agent agent, String why) {
        String details = "agent " + agent.name() + " (" + agent.id() + ") suspended by security_reports, trust "
                + agent.trustLevel().value() + " kept: " + why;
        try {
            alerts.raise(ALERT_KIND, "agent:" + agent.id(), details.length() <= 500 ? details
                    : details.substring(0, 497) + "...");
        } catch (RuntimeException failed) {
            LOG.warning(() -> "The alert for the takedown of agent " + agent.id() + " could not be raised: " + failed);
        }
    }
}
