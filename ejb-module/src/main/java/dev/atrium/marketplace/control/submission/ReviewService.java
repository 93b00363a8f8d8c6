package dev.atrium.marketplace.control.submission;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import dev.atrium.marketplace.control.AgentChanges;
import dev.atrium.marketplace.control.AgentRepository;
import dev.atrium.marketplace.control.trust.TrustService;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentAction;
import dev.atrium.marketplace.entity.AgentEvent;
import dev.atrium.marketplace.entity.AgentStatus;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.SubmissionStatus;
import dev.atrium.marketplace.entity.trust.TakedownReason;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/**
 * Human review and takedown: approving a version lists a pending agent (searchable) or starts the rollout of a listed
 * agent's new version, rejecting sends it back to its author with reasons, a takedown suspends a listed agent. Each move is recorded with the reviewer, the time and the reason,
 * and announced so that every instance's search index follows.
 */
@Stateless
public class ReviewService {

    static final Catalog<AgentVersion> SUBMISSIONS = Catalog.of(AgentVersion.class)
            .id("id", UUID.class)
            .createdAt("createdAt")
            .filterable("status", "status", SubmissionStatus.class)
            .filterable("agent_id", "agentId", UUID.class)
            .filterable("author_id", "authorId", Long.class)
            .filterable("name", "name", String.class)
            .sortable("review_due_at", "reviewDueAt", Instant.class, true)
            .search("name");

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    AgentRepository agents;

    @Inject
    AgentChanges changes;

    @Inject
    Clock clock;

    public Listing<AgentVersion> submissions(ListQuery query) {
        return new EntityQuery<>(em, SUBMISSIONS).list(query);
    }

    /**
     * Approves the agent's version waiting for review: a pending agent is listed with it, a listed agent starts
     * rolling it out (see {@link Agent#approve}). Its trust level is not the reviewer's to grant: see
     * {@link TrustService}.
     */
    public Agent approve(UUID id, long reviewer, String note) {
        Agent agent = agents.locked(id);
        Instant now = clock.instant();
        AgentVersion version = pending(agent);
        AgentStatus before = agent.status();
        version.approve(reviewer, note, now);
        Agent.Approval approval = agent.approve(version, CardValidator.stored(version.cardJson()), now);
        record(agent, version, AgentAction.APPROVED, before, reviewer, null, note, now);
        if (approval == Agent.Approval.ROLLOUT_STARTED) {
            record(agent, version, AgentAction.ROLLOUT_STARTED, before, 0, null, "Version " + version.version()
                    + " serves " + agent.rolloutPercent() + " % of callers; " + agent.version() + " the others",
                    now);
        }
        return agent;
    }

    /** Rejects the version waiting for review; a listed agent goes on serving its current version. */
    public Agent reject(UUID id, long reviewer, List<String> reasons) {
        Agent agent = agents.locked(id);
        Instant now = clock.instant();
        AgentVersion version = pending(agent);
        String text = String.join("\n", reasons);
        version.reject(reviewer, text, now);
        AgentStatus before = agent.versionRejected(now);
        record(agent, version, AgentAction.REJECTED, before, reviewer, null, text, now);
        return agent;
    }

    public Agent takeDown(UUID id, long reviewer, TakedownReason reason, String details) {
        Agent agent = agents.locked(id);
        Instant now = clock.instant();
        agent.takeDown(now);
        record(agent, AgentAction.TAKEN_DOWN, AgentStatus.ACTIVE, reviewer, reason.value(), details, now);
        return agent;
    }

    /**
     * Lifts a takedown after review: the suspended agent is active and searchable again with the version it served
     * and the trust level it has (a takedown by security reports keeps it), recorded as {@code reinstated} with the
     * reviewer and the note. Security reports count afresh from here on. A takedown that only a fixed version can
     * lift (a high-risk finding in the bundle, the author's account deleted) is 409.
     */
    public Agent reinstate(UUID id, long reviewer, String note) {
        Agent agent = agents.locked(id);
        Instant now = clock.instant();
        String reason = takedownReason(id);
        if (agent.status() == AgentStatus.SUSPENDED && (reason == null || !REINSTATABLE.contains(reason))) {
            throw BusinessException.conflict("The agent was taken down for " + reason + ": only a new version, "
                    + "reviewed and approved, can list it again");
        }
        agent.reinstate(now);
        record(agent, AgentAction.REINSTATED, AgentStatus.SUSPENDED, reviewer, reason,
                "suspended → active (trust " + agent.trustLevel().value() + "): " + note, now);
        return agent;
    }

    /** Takedowns a reviewer may lift: the reports' automatic one pending review, and the reviewers' own. */
    private static final Set<String> REINSTATABLE = Set.of(
            TakedownReason.SECURITY_REPORTS.value(), TakedownReason.DESCRIPTION_SERIOUSLY_WRONG.value(),
            TakedownReason.HIDDEN_CHARGING.value(), TakedownReason.COPYING_ANOTHER_DEVELOPER.value());

    /** The reason code of the agent's latest takedown, or null. */
    private String takedownReason(UUID id) {
        return em.createQuery("SELECT e.reasonCode FROM AgentEvent e WHERE e.agentId = :agent AND e.action = :down "
                        + "ORDER BY e.createdAt DESC, e.id DESC", String.class)
                .setParameter("agent", id).setParameter("down", AgentAction.TAKEN_DOWN).setMaxResults(1)
                .getResultStream().findFirst().orElse(null);
    }

    /** The reason code of a suspension because the author's account was deleted. */
    public static final String AUTHOR_DELETED = "author_deleted";

    /**
     * Suspends the pending and listed agents of a deleted author, in the deleting transaction, each with a
     * {@code taken_down} event of reason {@value #AUTHOR_DELETED} by the platform (actor 0). Answers how many.
     */
    public int authorDeleted(long authorId) {
        Instant now = clock.instant();
        List<Agent> authored = em.createQuery("select a from Agent a where a.authorId = :author", Agent.class)
                .setParameter("author", authorId).setLockMode(LockModeType.PESSIMISTIC_WRITE).getResultList();
        int suspended = 0;
        for (Agent agent : authored) {
            AgentStatus before = agent.suspendForDeletedAuthor(now);
            if (before != null) {
                record(agent, AgentAction.TAKEN_DOWN, before, 0, AUTHOR_DELETED, "The author's account was deleted",
                        now);
                suspended++;
            }
        }
        return suspended;
    }

    private AgentVersion pending(Agent agent) {
        return agents.pendingSubmission(agent.id()).orElseThrow(() -> BusinessException.conflict(
                agent.status() == AgentStatus.SUSPENDED
                        ? "The agent is suspended (" + takedownReason(agent.id()) + ") and has no new version waiting "
                        + "for review: lift the takedown with POST /v1/admin/agents/" + agent.id() + "/reinstate, "
                        + "or wait for the author's fixed version"
                        : "The agent has no submission waiting for review"));
    }

    private void record(Agent agent, AgentVersion version, AgentAction action, AgentStatus from, long actor,
                        String code, String reason, Instant now) {
        em.persist(new AgentEvent(agent, version.version(), action, from, actor, code, reason, now));
        changes.changed(agent);
    }

    private void record(Agent agent, AgentAction action, AgentStatus from, long actor, String code, String reason,
                        Instant now) {
        em.persist(new AgentEvent(agent, action, from, actor, code, reason, now));
        changes.changed(agent);
    }
}
