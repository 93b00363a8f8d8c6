package dev.atrium.marketplace.control;

import java.util.UUID;

import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentRun;
import dev.atrium.marketplace.entity.RunStatus;
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

    public AgentRun mine(UUID runId, long callerId) {
        AgentRun run = em.find(AgentRun.class, runId);
        if (run == null || !run.isCaller(callerId)) {
            throw BusinessException.notFound("Run");
        }
        return run;
    }

    public Listing<AgentRun> ofAgent(UUID agentId, Requester requester, ListQuery query) {
        Agent agent = em.find(Agent.class, agentId);
        if (agent == null || !agent.isAuthor(requester.userId()) && !requester.reviewer()) {
            throw BusinessException.notFound("Agent");
        }
        return new EntityQuery<>(em, RUNS).list(query, (cb, q, root) -> cb.equal(root.get("agentId"), agentId));
    }
}
