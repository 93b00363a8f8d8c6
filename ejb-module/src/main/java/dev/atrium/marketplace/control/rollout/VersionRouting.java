package dev.atrium.marketplace.control.rollout;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;

import dev.atrium.marketplace.control.AgentRepository;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.RolloutState;
import dev.atrium.platform.error.BusinessException;

/**
 * Which version of an agent serves a caller. Without a pin: the candidate of a rollout when the caller's bucket falls
 * inside its share, the current version otherwise. A caller's bucket is a stable hash of the agent and the caller,
 * so one caller sees one version during a step. With a pinned major ({@code ?version=1}) only versions of that major
 * serve: the live ones by the same rule, else the newest approved version of that major that no rollout dropped; a
 * new major is never rolled out to callers who pinned the previous one.
 */
@ApplicationScoped
public class VersionRouting {

    @EJB
    AgentRepository agents;

    /** 0..99: the first four bytes of SHA-256("agentId:userId") as an unsigned number, modulo 100. */
    public static int bucket(UUID agentId, long userId) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest((agentId + ":" + userId).getBytes(StandardCharsets.UTF_8));
            return (int) (Integer.toUnsignedLong(ByteBuffer.wrap(hash).getInt()) % 100);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** True when the caller is inside the candidate's share of a rollout. */
    public static boolean inCandidateShare(Agent agent, long userId) {
        return agent.rolloutState() != RolloutState.NONE && bucket(agent.id(), userId) < agent.rolloutPercent();
    }

    /**
     * The version serving this caller; {@code pinnedMajor} null when not pinned. 404 when the pinned major has no
     * approved version; 503 when the agent has nothing to serve (never the case for a listed agent).
     */
    public AgentVersion versionFor(Agent agent, long userId, Integer pinnedMajor) {
        return versionFor(agent, userId, pinnedMajor, agents::version);
    }

    /**
     * {@link #versionFor(Agent, long, Integer)} with the current and candidate versions read through
     * {@code versions} (by id), such as the invoke gateway's kept versions; the pinned major's other versions are
     * still read from the database.
     */
    public AgentVersion versionFor(Agent agent, long userId, Integer pinnedMajor,
                                   Function<UUID, Optional<AgentVersion>> versions) {
        AgentVersion current = versions.apply(agent.currentVersionId())
                .orElseThrow(() -> BusinessException.notFound("Agent"));
        AgentVersion candidate = agent.rolloutState() == RolloutState.NONE || agent.candidateVersionId() == null
                ? null : versions.apply(agent.candidateVersionId()).orElse(null);
        boolean toCandidate = candidate != null && inCandidateShare(agent, userId);
        if (pinnedMajor == null) {
            return toCandidate ? candidate : current;
        }
        boolean currentFits = major(current) == pinnedMajor;
        boolean candidateFits = candidate != null && major(candidate) == pinnedMajor;
        if (candidateFits && (toCandidate || !currentFits)) {
            return candidate;
        }
        if (currentFits) {
            return current;
        }
        return agents.versionsOf(agent.id()).stream()
                .filter(v -> v.isApproved() && v.rolledBackAt() == null && major(v) == pinnedMajor)
                .max(Comparator.comparing(AgentVersion::semanticVersion))
                .orElseThrow(() -> BusinessException.notFound("Version " + pinnedMajor + ".x of the agent"));
    }

    /**
     * The pinned major of an invocation's {@code version} parameter: null when absent, else a major number (a plain
     * non-negative integer, "1" or "v1"); anything else is a validation error naming the parameter.
     */
    public static Integer pinnedMajor(String parameter) {
        if (parameter == null || parameter.isEmpty()) {
            return null;
        }
        String digits = parameter.startsWith("v") ? parameter.substring(1) : parameter;
        if (digits.isEmpty() || digits.length() > 6 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')
                || digits.length() > 1 && digits.charAt(0) == '0') {
            throw BusinessException.validation("version: the major version to pin, a number such as 1 (or v1)");
        }
        return Integer.parseInt(digits);
    }

    private static long major(AgentVersion v) {
        return v.semanticVersion().major();
    }
}
