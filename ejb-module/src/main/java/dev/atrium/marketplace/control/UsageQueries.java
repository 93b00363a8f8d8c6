package dev.atrium.marketplace.control;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentUsage;

/** What billing reads of the marketplace's usage records: the facts of one priced invocation, by id. */
@Stateless
public class UsageQueries {

    /** One usage record as billing sees it: who pays, who earns, how much, and the hold placed for it. */
    public record BillableUsage(UUID usageId, long userId, UUID agentId, String agentName, long developerId,
                                BigDecimal priceCharged, UUID holdId, Instant recordedAt) {
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    public Optional<BillableUsage> billable(UUID usageId) {
        AgentUsage usage = em.find(AgentUsage.class, usageId);
        if (usage == null) {
            return Optional.empty();
        }
        Agent agent = em.find(Agent.class, usage.agentId());
        if (agent == null) {
            return Optional.empty();
        }
        return Optional.of(new BillableUsage(usage.id(), usage.userId(), agent.id(), agent.name(), agent.authorId(),
                usage.priceCharged(), usage.holdId(), usage.timestamp()));
    }
}
