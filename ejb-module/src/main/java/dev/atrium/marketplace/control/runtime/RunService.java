package dev.atrium.marketplace.control.runtime;

import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.marketplace.control.Requester;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.Pricing;
import dev.atrium.marketplace.entity.runtime.AgentRun;
import dev.atrium.marketplace.entity.runtime.AgentUsage;
import dev.atrium.marketplace.entity.runtime.RunStatus;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/**
 * Reading run records (spec 03, Authentication 5: logs and execution records are visible only to the caller): a run
 * with its input, output and log is its caller's alone, anyone else gets 404; an agent's runs are listed for its
 * author and reviewers, whose views never carry a caller's input or output, and a log only of their own calls
 * ({@link AgentRun#logFor}).
 */
@Stateless
public class RunService {

    static final Catalog<AgentRun> RUNS = Catalog.of(AgentRun.class)
            .id("id", UUID.class)
            .createdAt("createdAt")
            .filterable("status", "status", RunStatus.class)
            .filterable("version", "agentVersion", String.class)
            .sortable("duration_ms", "durationMs", Long.class, true);

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    Admissions admissions;

    public AgentRun mine(UUID runId, long callerId) {
        AgentRun run = em.find(AgentRun.class, runId);
        if (run == null || !run.isCaller(callerId)) {
            throw BusinessException.notFound("Run");
        }
        return run;
    }

    /** One dependency call a run made: the run it started, the agent, how it ended and what it was charged. */
    public record DependencyCall(UUID runId, UUID agentId, String agentVersion, boolean succeeded, BigDecimal price) {
    }

    /**
     * A run and its money: what the run itself was charged, what the whole invocation was (its dependency calls, all
     * levels, included), the dependency calls it made itself, and how many dependency calls of the invocation were
     * refused for the price cap.
     */
    public record RunDetails(AgentRun run, BigDecimal price, BigDecimal total, List<DependencyCall> dependencyCalls,
                             int dependencyCallsRefused) {
    }

    /** The caller's run with its charges; 404 for anyone else's. */
    public RunDetails mineWithCharges(UUID runId, long callerId) {
        AgentRun run = mine(runId, callerId);
        var own = em.createQuery("SELECT u FROM AgentUsage u WHERE u.runId = :run", AgentUsage.class)
                .setParameter("run", runId).getResultStream().findFirst();
        BigDecimal price = own.map(AgentUsage::priceCharged).orElse(Pricing.money(BigDecimal.ZERO));
        var calls = em.createQuery("SELECT u FROM AgentUsage u WHERE u.parentRunId = :run ORDER BY u.timestamp",
                        AgentUsage.class).setParameter("run", runId).getResultList().stream()
                .map(u -> new DependencyCall(u.runId(), u.agentId(), u.agentVersion(), u.succeeded(),
                        u.priceCharged())).toList();
        boolean root = own.map(u -> u.rootRunId() == null).orElse(true);
        BigDecimal total = price;
        int refused = 0;
        if (root) {
            total = Pricing.money(price.add(em.createQuery("SELECT COALESCE(SUM(u.priceCharged), 0) FROM AgentUsage u "
                    + "WHERE u.rootRunId = :run", BigDecimal.class).setParameter("run", runId).getSingleResult()));
            refused = admissions.budget(runId).map(Admissions.Budget::refused).orElse(0);
        }
        return new RunDetails(run, price, total, calls, refused);
    }

    public Listing<AgentRun> ofAgent(UUID agentId, Requester requester, ListQuery query) {
        Agent agent = em.find(Agent.class, agentId);
        if (agent == null || !agent.isAuthor(requester.userId()) && !requester.reviewer()) {
            throw BusinessException.notFound("Agent");
        }
        return new EntityQuery<>(em, RUNS).list(query, (cb, q, root) -> cb.equal(root.get("agentId"), agentId));
    }
}
