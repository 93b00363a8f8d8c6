package dev.atrium.marketplace.control.submission;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import dev.atrium.marketplace.control.AgentChanges;
import dev.atrium.marketplace.control.AgentRepository;
import dev.atrium.marketplace.control.checks.SafetyChecks;
import dev.atrium.marketplace.control.runtime.BundleCache;
import dev.atrium.marketplace.control.trust.TrustService;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentAction;
import dev.atrium.marketplace.entity.AgentEvent;
import dev.atrium.marketplace.entity.AgentStatus;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.checks.SafetyReport;
import dev.atrium.marketplace.entity.trust.TakedownReason;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.objects.ObjectStore;

/**
 * An administrator's re-scan of an agent's current version: the pre-listing checks again, on the bundle as stored
 * (fetched from the object store; an image-only agent has none, so only what needs no bundle is reported). Always a
 * {@code rescanned} entry in the history; a high-risk finding takes a pending or listed agent down ({@code suspended},
 * reason {@code high_risk_finding}) and is a security incident (the agent is demoted to unverified, an alert raised).
 * The scheduled re-scan ({@link #rescanListed}, job {@code agent-rescan}) goes through the same steps.
 */
@Stateless
public class RescanService {

    private static final Logger LOG = Logger.getLogger(RescanService.class.getName());

    /** What a re-scan found and did. */
    public record Rescan(Agent agent, SafetyReport report, boolean takenDown) {
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    SafetyChecks checks;

    @EJB
    AgentRepository agents;

    @Inject
    ObjectStore objects;

    @EJB
    TrustService trust;

    @Inject
    AgentChanges changes;

    @Inject
    Clock clock;

    /** What a scheduled re-scan of one agent did. */
    public enum Scheduled {
        /** The agent was no longer listed (taken down or unlisted meanwhile): nothing scanned or recorded. */
        SKIPPED,
        /** No high finding: nothing recorded. */
        CLEAN,
        /** A high finding on the serving version: suspended, an incident recorded. */
        TAKEN_DOWN
    }

    public Rescan rescan(UUID agentId, long reviewer) {
        Agent found = agents.find(agentId).orElseThrow(() -> BusinessException.notFound("Agent"));
        return scan(found, reviewer, SafetyChecks.Scope.ALL, false);
    }

    /**
     * The scheduled re-scan of a listed agent (job {@code agent-rescan}), in a transaction of its own so that one
     * agent's failure (its bundle missing from the store) leaves the others' outcomes: the checks that need no run of
     * the agent, with the consequences of an administrator's re-scan. Only a finding is written to the history, and an agent that
     * is no longer listed when its row is locked is left alone, so a second run, or a restart over agents already
     * scanned, opens no second incident.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Scheduled rescanListed(UUID agentId) {
        Agent found = em.find(Agent.class, agentId);
        if (found == null || found.status() != AgentStatus.ACTIVE) {
            return Scheduled.SKIPPED;
        }
        Rescan done = scan(found, TrustService.PLATFORM, SafetyChecks.Scope.WITHOUT_RUNS, true);
        if (done == null) {
            return Scheduled.SKIPPED;
        }
        return done.takenDown() ? Scheduled.TAKEN_DOWN : Scheduled.CLEAN;
    }

    /** Listed agents after {@code after} (null: from the first) in id order, at most {@code limit}. */
    public List<UUID> listed(UUID after, int limit) {
        return agents.activeIds(after, limit);
    }

    /** Null when {@code onlyListed} and the agent is no longer listed once locked. */
    private Rescan scan(Agent found, long reviewer, SafetyChecks.Scope scope, boolean onlyListed) {
        UUID agentId = found.id();
        // the version serving callers, else the newest one (an agent not listed yet)
        AgentVersion scanned = agents.current(found)
                .or(() -> agents.versionsOf(found.id()).stream().findFirst())
                .orElseThrow(() -> BusinessException.conflict("The agent has no stored version"));
        String key = scanned.bundleKey();
        String version = scanned.version();
        // the agent runs without the row lock held; the lock is taken to record what was found
        SafetyReport report = key == null ? checks.check(scanned.cardJson(), null, null, scope)
                : scanStored(scanned, key, scope);
        Agent agent = em.find(Agent.class, agentId, LockModeType.PESSIMISTIC_WRITE);
        if (onlyListed && agent.status() != AgentStatus.ACTIVE) {
            return null;
        }
        Instant now = clock.instant();
        // a finding counts when the scanned version still serves (or, unlisted, is still the newest)
        boolean stillServes = agent.currentVersionId() == null || scanned.id().equals(agent.currentVersionId());
        boolean rejects = report.rejects() && stillServes;
        if (!onlyListed || rejects) {
            em.persist(new AgentEvent(agent, version, AgentAction.RESCANNED, agent.status(), reviewer,
                    SubmissionService.checkCode(report), (onlyListed ? "Scheduled re-scan" : "Re-scan")
                    + " of version " + version + ": " + report.summary(), now));
        }
        boolean takenDown = false;
        if (rejects) {
            String reason = "High-risk findings in a " + (onlyListed ? "scheduled " : "") + "re-scan: "
                    + report.high().stream().limit(5)
                    .map(f -> (f.pointer().isEmpty() ? "" : f.pointer() + ": ") + f.message())
                    .collect(Collectors.joining("; "));
            String cut = reason.length() > 3900 ? reason.substring(0, 3900) + "…" : reason;
            AgentStatus before = agent.suspendForFinding(now);
            if (before != null) {
                em.persist(new AgentEvent(agent, AgentAction.TAKEN_DOWN, before, reviewer,
                        TakedownReason.HIGH_RISK_FINDING.value(), cut, now));
                takenDown = true;
            }
            trust.incident(agentId, TakedownReason.HIGH_RISK_FINDING.value(), cut);
            LOG.warning(() -> "Agent " + agentId + " re-scan: " + report.summary());
        }
        if (!onlyListed || rejects) {
            changes.changed(agent);
        }
        return new Rescan(agent, report, takenDown);
    }

    private SafetyReport scanStored(AgentVersion agent, String key, SafetyChecks.Scope scope) {
        ObjectStore.StoredObject stored = objects.get(key).orElseThrow(() -> BusinessException.conflict(
                "The agent's stored bundle is missing from the object store"));
        Path file = null;
        try (InputStream in = stored.content()) {
            file = Files.createTempFile("atrium-rescan-", ".bundle");
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            String format = key.endsWith("." + BundleInspector.ZIP) ? BundleInspector.ZIP
                    : BundleCache.isImage(key) ? BundleInspector.IMAGE : BundleInspector.TAR_GZ;
            return checks.check(agent.cardJson(), file, format, scope);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    LOG.warning(() -> "A re-scan's temporary bundle could not be removed: " + e);
                }
            }
        }
    }
}
