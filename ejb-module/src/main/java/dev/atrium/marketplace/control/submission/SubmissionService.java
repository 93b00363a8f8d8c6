package dev.atrium.marketplace.control.submission;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.ai.control.TenantService;
import dev.atrium.marketplace.control.AgentRepository;
import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.marketplace.control.checks.SafetyChecks;
import dev.atrium.marketplace.control.checks.SmokeTestCheck;
import dev.atrium.marketplace.control.search.Embeddings;
import dev.atrium.marketplace.control.search.SearchIndex;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentAction;
import dev.atrium.marketplace.entity.AgentCard;
import dev.atrium.marketplace.entity.AgentEvent;
import dev.atrium.marketplace.entity.AgentStatus;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.SemanticVersion;
import dev.atrium.marketplace.entity.StoredBundle;
import dev.atrium.marketplace.entity.checks.CheckResult;
import dev.atrium.marketplace.entity.checks.CheckStatus;
import dev.atrium.marketplace.entity.checks.SafetyReport;
import dev.atrium.marketplace.entity.checks.Severity;
import dev.atrium.marketplace.entity.checks.SmokeStatus;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.objects.ObjectStore;
import dev.atrium.platform.persistence.Constraints;

/**
 * The submission pipeline: bundle checks and card validation (every problem reported), then the pre-listing checks
 * ({@link SafetyChecks}: a high-risk finding or a failed smoke test rejects, nothing stored), then the record stored
 * as a version awaiting review with its capability embedding, the bundle in the object store and the checks' report
 * (also summarised in the history). A card whose name exists is a new version of that agent when it comes from the
 * same author with a version higher than any the agent had, a conflict otherwise; a listed agent keeps serving and
 * stays searchable with its current version while the new one is reviewed.
 */
@Stateless
public class SubmissionService {

    /** The spec's free tier: at most 3 published agents. */
    public static final int FREE_TIER_AGENTS = 3;


    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    AgentRepository agents;

    @Inject
    CardValidation cards;

    @Inject
    @ConfigProperties
    MarketplaceConfig config;

    @Inject
    Embeddings embeddings;

    @Inject
    ObjectStore objects;

    @EJB
    TenantService tenants;

    @Inject
    SafetyChecks checks;

    @EJB
    DependencyResolver dependencies;

    @Inject
    Clock clock;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;

    /** {@code bundle} is the uploaded archive on disk, or null when the agent runs from its image alone. */
    public SubmissionOutcome submit(long authorId, String cardText, Path bundle) {
        var problems = new ArrayList<SubmissionProblem>();
        BundleInspector.Inspection inspection = null;
        boolean image = false;
        if (bundle != null) {
            inspection = config.inspector().inspect(bundle);
            problems.addAll(inspection.problems());
            image = BundleInspector.IMAGE.equals(inspection.format());
            // the upload was read up to the larger cap, before its content told a bundle from an image archive
            long max = image ? config.imageMaxBytes : config.bundleMaxBytes;
            if (size(bundle) > max) {
                throw new BusinessException(Problem.PAYLOAD_TOO_LARGE, "The submission is too large",
                        (image ? "An image archive" : "A bundle") + " may have at most " + max + " bytes");
            }
        }
        CardValidator.Result validation = cards.validator().validate(cardText, bundle != null && !image, image);
        problems.addAll(validation.problems());
        if (!problems.isEmpty()) {
            return SubmissionOutcome.rejected(problems);
        }
        AgentCard card = validation.card();
        Instant now = clock.instant();
        var existing = agents.findByName(card.name());
        if (existing.isPresent() && !existing.get().isAuthor(authorId)) {
            throw BusinessException.conflict("name: '" + card.name() + "' is taken by another developer's agent");
        }
        if (existing.isEmpty() && tenants.onFreeTier(authorId)
                && agents.countPublished(authorId) >= FREE_TIER_AGENTS) {
            throw BusinessException.forbidden("The free tier allows at most " + FREE_TIER_AGENTS
                    + " published agents; upgrade, or resubmit one of yours as a new version");
        }
        if (existing.isPresent()) {
            // asked before the checks run, so that a doomed version does not run them first
            SemanticVersion newest = newestVersion(existing.get());
            if (card.version().compareTo(newest) <= 0) {
                throw BusinessException.conflict("version: " + card.version() + " must be higher than "
                        + newest + ", the agent's newest version");
            }
        }
        var unresolved = dependencies.problems(card.name(), card.json());
        if (!unresolved.isEmpty()) {
            return SubmissionOutcome.rejected(unresolved);
        }
        // the pre-listing checks run the agent, so only once the card, the name, the version and the tier are settled
        SafetyReport report = checks.check(card.json(), bundle, inspection == null ? null : inspection.format());
        if (report.rejects()) {
            return SubmissionOutcome.rejected(SubmissionProblem.of(report), report);
        }
        CheckResult smokeCheck = report.check(SmokeTestCheck.NAME).orElseThrow();
        SmokeStatus smoke = smokeCheck.status() == CheckStatus.PASSED ? SmokeStatus.PASSED : SmokeStatus.NOT_RUN;
        UUID agentId = existing.map(Agent::id).orElseGet(UUID::randomUUID);
        StoredBundle stored = bundle == null ? null : store(agentId, card, bundle, inspection.format());
        float[] vector = embeddings.embed(card.embeddingText());
        var capabilityVectors = SearchIndex.embedEach(embeddings, card.capabilities());
        String model = embeddings.modelId();

        Agent agent;
        AgentStatus before;
        AgentAction action;
        String note;
        if (existing.isPresent()) {
            agent = existing.get();
            before = agent.newVersion(card, smoke, now);
            agents.pendingSubmission(agent.id()).ifPresent(s -> s.supersede(now));
            action = AgentAction.RESUBMITTED;
            note = before == AgentStatus.ACTIVE ? " Version " + agent.version() + " keeps serving meanwhile." : "";
        } else {
            agent = Agent.submitted(agentId, authorId, card, smoke, now);
            if (!Constraints.persistUnique(em, agent)) {
                throw BusinessException.conflict("name: '" + card.name() + "' was taken at the same moment");
            }
            before = null;
            action = AgentAction.SUBMITTED;
            note = "";
        }
        var submission = new AgentVersion(agent.id(), authorId, card, stored, smoke, smokeCheck.summary(), vector,
                model, config.reviewWithin(), now);
        submission.embedCapabilities(capabilityVectors);
        submission.recordChecks(report);
        if (!Constraints.persistUnique(em, submission)) {
            throw BusinessException.conflict("version: " + card.version() + " was submitted at the same moment");
        }
        // the history's entry of the submission carries the checks' summary, its reason code their worst finding
        em.persist(new AgentEvent(agent, card.version().toString(), action, before, authorId, checkCode(report),
                "Version " + card.version() + " submitted for review." + note + " Pre-listing checks: "
                        + report.summary(), now));
        return SubmissionOutcome.accepted(agent, submission, report);
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The highest version the agent ever had submitted, whatever became of it: a version number is used once. */
    private SemanticVersion newestVersion(Agent agent) {
        return agents.versionsOf(agent.id()).stream().map(AgentVersion::semanticVersion)
                .max(SemanticVersion::compareTo).orElse(agent.version());
    }

    /** The history's reason code of a check report: the worst severity found. */
    static String checkCode(SafetyReport report) {
        for (Severity s : List.of(Severity.HIGH, Severity.MEDIUM, Severity.LOW)) {
            if (report.checks().stream().anyMatch(c -> c.count(s) > 0)) {
                return "findings_" + s.value();
            }
        }
        return "no_findings";
    }

    private StoredBundle store(UUID agentId, AgentCard card, Path bundle, String format) {
        String key = "marketplace/agents/" + agentId + "/" + card.version() + "/" + UUID.randomUUID()
                + "/bundle." + format;
        String type = format.equals(BundleInspector.ZIP) ? "application/zip"
                : format.equals(BundleInspector.IMAGE) ? "application/x-tar" : "application/gzip";
        long size;
        try (InputStream in = Files.newInputStream(bundle)) {
            size = objects.put(key, in, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // the row and the object go together: a rolled-back submission leaves no bundle behind
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (status != Status.STATUS_COMMITTED) {
                    objects.delete(key);
                }
            }
        });
        return new StoredBundle(key, size, format);
    }
}
