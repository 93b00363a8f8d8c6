package dev.atrium.marketplace.control;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.marketplace.entity.AgentRun;
import dev.atrium.marketplace.entity.AgentUsage;
import dev.atrium.marketplace.entity.Pricing;
import dev.atrium.platform.events.ApplicationEvents;

/**
 * Records a finished run in one short transaction: the run record, the priced usage record with its
 * {@link UsageRecorded} event in the outbox, the agent's {@code total_calls} (an atomic SQL UPDATE that leaves the
 * agent's optimistic version alone), and the trust promotion check that counter may trigger.
 */
@Stateless
public class UsageRecorder {

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    ApplicationEvents events;

    @EJB
    TrustService trust;

    @Inject
    Clock clock;

    public AgentUsage record(AgentRun.Facts run, AgentUsage.Facts usage, Pricing pricing) {
        var now = clock.instant();
        em.persist(new AgentRun(run, now));
        long earlier = pricing.countsEarlierCalls() && usage.succeeded()
                ? successfulCallsThisMonth(usage.userId(), usage.agentId()) : 0;
        var record = AgentUsage.of(UUID.randomUUID(), usage, pricing, earlier, now);
        em.persist(record);
        events.publish(new UsageRecorded(record.id()));
        // SQL, not JPQL: EclipseLink's bulk update would raise the optimistic version, and every concurrent edit of
        // the agent (a review, a takedown) would then fail on an invocation
        em.createNativeQuery("UPDATE agents SET total_calls = total_calls + 1 WHERE id = ?")
                .setParameter(1, usage.agentId()).executeUpdate();
        trust.reconsider(usage.agentId());
        return record;
    }

    /** The caller's successful calls of the agent this calendar month (UTC): freemium's quota, subscription's fee. */
    public long successfulCallsThisMonth(long userId, UUID agentId) {
        var start = YearMonth.now(clock.withZone(ZoneOffset.UTC)).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        return em.createQuery("SELECT COUNT(u) FROM AgentUsage u WHERE u.userId = :user AND u.agentId = :agent "
                        + "AND u.succeeded = TRUE AND u.timestamp >= :start", Long.class)
                .setParameter("user", userId).setParameter("agent", agentId).setParameter("start", start)
                .getSingleResult();
    }

    /** What {@code seconds} of sandbox time cost at {@code ratePerSecond}. */
    static BigDecimal computeCost(double seconds, BigDecimal ratePerSecond) {
        return Pricing.money(ratePerSecond.multiply(BigDecimal.valueOf(Math.max(0, seconds))));
    }
}
