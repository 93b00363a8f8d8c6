package dev.atrium.ai.control;

import java.math.BigDecimal;
import java.time.Clock;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.ai.control.models.ModelDefinition;
import dev.atrium.ai.control.models.Usage;
import dev.atrium.ai.entity.UsageRecord;

/**
 * Records every billed model call for the daily usage report, in the caller's transaction when there is one (the
 * answer and its record are saved together) or in one of its own (WebSocket chats, which store nothing else).
 */
@Stateless
public class UsageLedger {

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Clock clock;

    /** A call of {@code model}: its cost from the model's prices. */
    public void record(long userId, ModelDefinition model, String channel, Usage usage) {
        record(userId, model.id(), channel, usage,
                model.inputCost(usage.inputTokens()).add(model.outputCost(usage.outputTokens())));
    }

    /** A call whose cost is already known. */
    public void record(long userId, String model, String channel, Usage usage, BigDecimal cost) {
        em.persist(new UsageRecord(userId, model, channel, usage.inputTokens(), usage.outputTokens(), cost,
                clock.instant()));
    }
}
