package dev.atrium.marketplace.control.registry;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import dev.atrium.marketplace.control.Requester;
import dev.atrium.marketplace.control.trust.TrustService;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.Pricing;
import dev.atrium.marketplace.entity.quality.AgentReview;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/**
 * Users' reviews of agents (spec 03): a user who used a listed agent successfully at least 3 times rates it 1 to 5
 * with a comment; a second review replaces the first; the agent's average is recalculated under its row lock.
 * Authors do not review their own agents.
 */
@Stateless
public class RatingService {

    static final Catalog<AgentReview> REVIEWS = Catalog.of(AgentReview.class)
            .id("id", UUID.class)
            .createdAt("createdAt")
            .filterable("rating", "rating", Integer.class)
            .filterable("verified_purchase", "verifiedPurchase", Boolean.class)
            .sortable("rating", "rating", Integer.class, true)
            .sortable("updated_at", "updatedAt", Instant.class, true);

    /** A stored review, and whether it replaced an earlier one of the same user. */
    public record Written(AgentReview review, boolean replaced) {
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Clock clock;

    @EJB
    TrustService trust;

    public Written review(UUID agentId, long userId, int rating, String comment) {
        Agent agent = em.find(Agent.class, agentId, LockModeType.PESSIMISTIC_WRITE);
        if (agent == null || !agent.isActive()) {
            throw BusinessException.notFound("Agent");
        }
        if (agent.isAuthor(userId)) {
            throw BusinessException.forbidden("Authors do not review their own agents");
        }
        Object[] uses = em.createQuery("SELECT COUNT(u), COALESCE(SUM(u.priceCharged), 0) FROM AgentUsage u "
                        + "WHERE u.agentId = :agent AND u.userId = :user AND u.succeeded = true", Object[].class)
                .setParameter("agent", agentId).setParameter("user", userId).getSingleResult();
        long usageCount = ((Number) uses[0]).longValue();
        if (usageCount < AgentReview.MIN_USES) {
            throw new BusinessException(Problem.REVIEW_NOT_ELIGIBLE, "Not enough uses to review this agent",
                    "A review needs at least " + AgentReview.MIN_USES + " successful uses of the agent; you have "
                            + usageCount);
        }
        BigDecimal paid = uses[1] instanceof BigDecimal b ? b : new BigDecimal(uses[1].toString());
        Pricing pricing = Pricing.of(agent.pricingJson());
        boolean paidAgent = pricing.model() != Pricing.Model.FREE && pricing.priceUsd().signum() > 0;
        boolean verified = !paidAgent || paid.signum() > 0;
        Instant now = clock.instant();
        var existing = em.createQuery("SELECT r FROM AgentReview r WHERE r.agentId = :agent AND r.userId = :user",
                        AgentReview.class)
                .setParameter("agent", agentId).setParameter("user", userId).getResultStream().findFirst();
        AgentReview review;
        if (existing.isPresent()) {
            review = existing.get();
            review.rewrite(rating, comment, usageCount, verified, now);
        } else {
            review = new AgentReview(agentId, userId, rating, comment, usageCount, verified, now);
            em.persist(review);
        }
        em.flush();
        Object[] figures = em.createQuery("SELECT COUNT(r), AVG(r.rating) FROM AgentReview r "
                + "WHERE r.agentId = :agent", Object[].class).setParameter("agent", agentId).getSingleResult();
        int count = ((Number) figures[0]).intValue();
        agent.rated(count == 0 ? 0 : ((Number) figures[1]).doubleValue(), count, now);
        // a rating may complete what an unverified agent needs for community trust
        trust.reconsider(agentId);
        return new Written(review, existing.isPresent());
    }

    /** The reviews of an agent anyone may see. */
    public Listing<AgentReview> reviews(UUID agentId, Requester requester, ListQuery query) {
        Agent agent = em.find(Agent.class, agentId);
        if (agent == null || !agent.isActive() && !agent.isAuthor(requester.userId()) && !requester.reviewer()) {
            throw BusinessException.notFound("Agent");
        }
        return new EntityQuery<>(em, REVIEWS).list(query, (cb, q, root) -> cb.equal(root.get("agentId"), agentId));
    }
}
