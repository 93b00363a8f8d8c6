package dev.atrium.marketplace.control.rollout;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.logging.Logger;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.marketplace.control.AgentChanges;
import dev.atrium.marketplace.control.AgentRepository;
import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.marketplace.control.Requester;
import dev.atrium.marketplace.control.quality.QualityMeasure;
import dev.atrium.marketplace.control.submission.CardValidator;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentAction;
import dev.atrium.marketplace.entity.AgentEvent;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.RolloutState;
import dev.atrium.marketplace.entity.quality.QualityScore;
import dev.atrium.platform.error.BusinessException;

/**
 * Gradual rollout of an agent's approved version: 10 % of callers, then 50 %, then all, one step per observation
 * period while its quality holds against the current version; a drop restores the current version for everyone and
 * records why ({@link RolloutPolicy}). Evaluated every minute on each instance and on an operator's call: each agent
 * under its row lock, so that instances never move one twice. Administrators may pause, resume, promote or roll
 * back; every move is in the agent's history with the candidate's version.
 */
@Stateless
public class RolloutService {

    private static final Logger LOG = Logger.getLogger(RolloutService.class.getName());

    /** The reason code of an automatic rollback. */
    public static final String QUALITY_DROP = "quality_drop";
    /** The reason code of a move made by an administrator. */
    public static final String BY_ADMIN = "by_administrator";

    /** A rollout as its author sees it: the agent, the two versions and their figures over the current step. */
    public record Rollout(Agent agent, AgentVersion current, AgentVersion candidate, QualityScore currentFigures,
                          QualityScore candidateFigures, Instant nextStepDueAt, RolloutPolicy.Settings settings,
                          List<AgentEvent> moves) {
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    AgentRepository agents;

    @EJB
    QualityMeasure quality;

    @Inject
    AgentChanges changes;

    @Inject
    Clock clock;

    @Resource
    SessionContext context;

    @Inject
    @ConfigProperties
    MarketplaceConfig config;

    public RolloutPolicy.Settings settings() {
        return new RolloutPolicy.Settings(Duration.ofHours(config.rolloutStepHours), config.rolloutMinCalls,
                config.rolloutSuccessMargin, config.rolloutQualityMargin);
    }

    /** Evaluates every rollout in progress, each in its own transaction. Answers how many moved. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public int evaluateAll() {
        List<UUID> rolling = em.createQuery("SELECT a.id FROM Agent a WHERE a.rolloutState = :state ORDER BY a.id",
                UUID.class).setParameter("state", RolloutState.ROLLING_OUT).getResultList();
        RolloutService self = context.getBusinessObject(RolloutService.class);
        int moved = 0;
        for (UUID id : rolling) {
            try {
                if (self.evaluate(id) != RolloutPolicy.Move.HOLD) {
                    moved++;
                }
            } catch (RuntimeException e) {
                LOG.warning(() -> "The rollout of agent " + id + " could not be evaluated: " + e);
            }
        }
        return moved;
    }

    /** Evaluates one agent's rollout under its row lock; a paused or finished rollout holds. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public RolloutPolicy.Move evaluate(UUID agentId) {
        Agent agent = em.find(Agent.class, agentId, LockModeType.PESSIMISTIC_WRITE);
        if (agent == null || agent.rolloutState() != RolloutState.ROLLING_OUT) {
            return RolloutPolicy.Move.HOLD;
        }
        Instant now = clock.instant();
        AgentVersion candidate = agents.version(agent.candidateVersionId()).orElseThrow();
        AgentVersion current = agents.current(agent).orElseThrow();
        var decision = RolloutPolicy.decide(settings(), agent.rolloutStepAt(), now,
                quality.measure(agent.id(), candidate.version(), agent.rolloutStepAt(), now),
                quality.measure(agent.id(), current.version(), agent.rolloutStepAt(), now));
        switch (decision.move()) {
            case ADVANCE -> advance(agent, candidate, 0, null, decision.reason(), now);
            case ROLL_BACK -> rollBack(agent, candidate, 0, QUALITY_DROP, decision.reason(), now);
            case HOLD -> {
                return RolloutPolicy.Move.HOLD;
            }
        }
        return decision.move();
    }

    /** The rollout for the author and reviewers; 404 for anyone else and for an agent that never rolled out. */
    public Rollout rollout(UUID agentId, Requester requester) {
        Agent agent = em.find(Agent.class, agentId);
        if (agent == null || !agent.isAuthor(requester.userId()) && !requester.reviewer()) {
            throw BusinessException.notFound("Agent");
        }
        Instant now = clock.instant();
        AgentVersion current = agents.current(agent).orElse(null);
        AgentVersion candidate = agents.version(agent.candidateVersionId()).orElse(null);
        QualityScore currentFigures = null;
        QualityScore candidateFigures = null;
        Instant due = null;
        if (candidate != null) {
            currentFigures = quality.measure(agent.id(), current.version(), agent.rolloutStepAt(), now);
            candidateFigures = quality.measure(agent.id(), candidate.version(), agent.rolloutStepAt(), now);
            due = agent.rolloutState() == RolloutState.ROLLING_OUT ? agent.rolloutStepAt().plus(settings().step())
                    : null;
        }
        List<AgentEvent> moves = em.createQuery("SELECT e FROM AgentEvent e WHERE e.agentId = :agent "
                        + "AND e.action IN :actions ORDER BY e.createdAt DESC, e.id DESC", AgentEvent.class)
                .setParameter("agent", agentId)
                .setParameter("actions", List.of(AgentAction.ROLLOUT_STARTED, AgentAction.ROLLOUT_ADVANCED,
                        AgentAction.ROLLOUT_COMPLETED, AgentAction.ROLLOUT_PAUSED, AgentAction.ROLLOUT_RESUMED,
                        AgentAction.ROLLED_BACK))
                .setMaxResults(20).getResultList();
        return new Rollout(agent, current, candidate, currentFigures, candidateFigures, due, settings(), moves);
    }

    public Agent pause(UUID agentId, long admin, String note) {
        Agent agent = agents.locked(agentId);
        Instant now = clock.instant();
        agent.pauseRollout(now);
        record(agent, candidate(agent), AgentAction.ROLLOUT_PAUSED, admin, BY_ADMIN, note, now);
        return agent;
    }

    public Agent resume(UUID agentId, long admin, String note) {
        Agent agent = agents.locked(agentId);
        Instant now = clock.instant();
        agent.resumeRollout(now);
        record(agent, candidate(agent), AgentAction.ROLLOUT_RESUMED, admin, BY_ADMIN, note, now);
        return agent;
    }

    /** The next step now, whatever the figures say (a paused rollout too). */
    public Agent promote(UUID agentId, long admin, String note) {
        Agent agent = agents.locked(agentId);
        if (agent.rolloutState() == RolloutState.NONE) {
            throw BusinessException.conflict("No version is rolling out");
        }
        Instant now = clock.instant();
        if (agent.rolloutState() == RolloutState.PAUSED) {
            agent.resumeRollout(now);
        }
        advance(agent, candidate(agent), admin, BY_ADMIN, note, now);
        return agent;
    }

    public Agent rollBack(UUID agentId, long admin, String note) {
        Agent agent = agents.locked(agentId);
        if (agent.rolloutState() == RolloutState.NONE) {
            throw BusinessException.conflict("No version is rolling out");
        }
        rollBack(agent, candidate(agent), admin, BY_ADMIN, note, clock.instant());
        return agent;
    }

    private void advance(Agent agent, AgentVersion candidate, long actor, String code, String reason, Instant now) {
        if (agent.rolloutPercent() == Agent.FIRST_STEP_PERCENT) {
            agent.advanceRollout(now);
            record(agent, candidate, AgentAction.ROLLOUT_ADVANCED, actor, code,
                    "Now " + agent.rolloutPercent() + " % of callers. " + reason, now);
        } else {
            String previous = agent.version().toString();
            agent.completeRollout(candidate, CardValidator.stored(candidate.cardJson()), now);
            record(agent, candidate, AgentAction.ROLLOUT_COMPLETED, actor, code,
                    "Serves every caller, replacing " + previous + ". " + reason, now);
            changes.changed(agent);
        }
        LOG.info(() -> "Agent " + agent.id() + " version " + candidate.version() + ": rollout at "
                + (agent.rolloutState() == RolloutState.NONE ? 100 : agent.rolloutPercent()) + " %");
    }

    private void rollBack(Agent agent, AgentVersion candidate, long actor, String code, String reason, Instant now) {
        agent.rollBack(now);
        candidate.rolledBack(now);
        record(agent, candidate, AgentAction.ROLLED_BACK, actor, code,
                "Version " + agent.version() + " serves every caller again. " + reason, now);
        // the agent's last change moved: every instance's index notes it, or its reconciliation would redo it
        changes.changed(agent);
        LOG.warning(() -> "Agent " + agent.id() + " version " + candidate.version() + " rolled back: " + reason);
    }

    private AgentVersion candidate(Agent agent) {
        return agents.version(agent.candidateVersionId())
                .orElseThrow(() -> BusinessException.conflict("No version is rolling out"));
    }

    private void record(Agent agent, AgentVersion candidate, AgentAction action, long actor, String code,
                        String reason, Instant now) {
        String text = reason == null || reason.length() <= 4000 ? reason : reason.substring(0, 3999) + "…";
        em.persist(new AgentEvent(agent, candidate.version(), action, agent.status(), actor, code, text, now));
    }
}
