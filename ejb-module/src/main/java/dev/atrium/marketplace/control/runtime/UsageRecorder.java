package dev.atrium.marketplace.control.runtime;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.marketplace.control.CallFunds;
import dev.atrium.marketplace.control.UsageRecorded;
import dev.atrium.marketplace.control.trust.TrustService;
import dev.atrium.marketplace.entity.Pricing;
import dev.atrium.marketplace.entity.runtime.AgentRun;
import dev.atrium.marketplace.entity.runtime.AgentUsage;
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

    /** Billing's balances (billing implements it). */
    @Inject
    CallFunds balances;

    @Inject
    Clock clock;

    /**
     * Records the run and its usage, priced as admission decided; the usage record claims the call's hold in the
     * same transaction, so the sweeper never releases a hold that billing will settle.
     */
    public AgentUsage record(AgentRun.Facts run, AgentUsage.Facts usage) {
        var now = clock.instant();
        em.persist(new AgentRun(run, now));
        var record = AgentUsage.of(UUID.randomUUID(), usage, now);
        if (usage.holdId() != null) {
            balances.claim(usage.holdId());
        }
        em.persist(record);
        events.publish(new UsageRecorded(record.id()));
        // SQL, not JPQL: EclipseLink's bulk update would raise the optimistic version, and every concurrent edit of
        // the agent (a review, a takedown) would then fail on an invocation
        em.createNativeQuery("UPDATE agents SET total_calls = total_calls + 1 WHERE id = ?")
                .setParameter(1, usage.agentId()).executeUpdate();
        trust.reconsider(usage.agentId());
        return record;
    }

    /** What the dependency calls of the invocation {@code rootRunId} were charged, all levels. */
    public BigDecimal chargedUnder(UUID rootRunId) {
        return Pricing.money(em.createQuery("SELECT COALESCE(SUM(u.priceCharged), 0) FROM AgentUsage u "
                + "WHERE u.rootRunId = :root", BigDecimal.class).setParameter("root", rootRunId).getSingleResult());
    }

    /** What {@code seconds} of sandbox time cost at {@code ratePerSecond}. */
    static BigDecimal computeCost(double seconds, BigDecimal ratePerSecond) {
        return Pricing.money(ratePerSecond.multiply(BigDecimal.valueOf(Math.max(0, seconds))));
    }
}
