package dev.atrium.marketplace.control.registry;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import dev.atrium.marketplace.control.AgentRepository;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentAction;
import dev.atrium.marketplace.entity.AgentEvent;
import dev.atrium.marketplace.entity.Permissions;
import dev.atrium.marketplace.entity.runtime.AgentSecret;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * An agent's secrets (DESIGN 16): its author sets, replaces and deletes them, and sees their names and times, never
 * their values; anyone else, reviewers too, finds no agent (404). A run of the agent receives the values of the
 * names its running version declares in {@code permissions.allowed_env_vars}, and nothing of any other agent. Each
 * change is in the agent's history with the name; no value is ever logged.
 */
@Stateless
public class AgentSecretService {

    private static final Logger LOG = Logger.getLogger(AgentSecretService.class.getName());

    /** An agent's secrets, and the names its current version declares. */
    public record Secrets(List<AgentSecret> secrets, Set<String> declared) {
    }

    /** A secret as stored, whether it was new, and whether the current version declares its name. */
    public record Stored(AgentSecret secret, boolean created, boolean declared) {
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    AgentRepository agents;

    @Inject
    SecretCipher cipher;

    @Inject
    Clock clock;

    public Secrets list(UUID agentId, long userId) {
        Agent agent = authored(agentId, userId, LockModeType.NONE);
        return new Secrets(secretsOf(agentId), declared(agent));
    }

    public Stored set(UUID agentId, long userId, String name, String value) {
        // the lock makes the count per agent exact under concurrent writes
        Agent agent = authored(agentId, userId, LockModeType.PESSIMISTIC_WRITE);
        AgentSecret.checkedName(name);
        AgentSecret.checkValue(value);
        Instant now = clock.instant();
        var sealed = cipher.seal(agentId, name, value);
        var existing = secretsOf(agentId).stream().filter(s -> s.name().equals(name)).findFirst();
        AgentSecret secret;
        if (existing.isPresent()) {
            secret = existing.get();
            secret.replace(sealed.nonce(), sealed.ciphertext(), userId, now);
        } else {
            if (secretsOf(agentId).size() >= AgentSecret.MAX_PER_AGENT) {
                throw new BusinessException(Problem.VALIDATION, "An agent has at most " + AgentSecret.MAX_PER_AGENT
                        + " secrets", "Delete one before setting another");
            }
            secret = new AgentSecret(agent, name, sealed.nonce(), sealed.ciphertext(), userId, now);
            em.persist(secret);
        }
        em.persist(new AgentEvent(agent, AgentAction.SECRET_SET, agent.status(), userId, null,
                "Secret " + name + (existing.isPresent() ? " replaced" : " set"), now));
        LOG.info(() -> "Secret " + name + " of agent " + agentId + (existing.isPresent() ? " replaced" : " set")
                + " by user " + userId);
        return new Stored(secret, existing.isEmpty(), declared(agent).contains(name));
    }

    public void delete(UUID agentId, long userId, String name) {
        Agent agent = authored(agentId, userId, LockModeType.PESSIMISTIC_WRITE);
        var secret = secretsOf(agentId).stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> BusinessException.notFound("Secret"));
        em.remove(secret);
        em.persist(new AgentEvent(agent, AgentAction.SECRET_DELETED, agent.status(), userId, null,
                "Secret " + name + " deleted", clock.instant()));
        LOG.info(() -> "Secret " + name + " of agent " + agentId + " deleted by user " + userId);
    }

    /**
     * The values a run of the agent receives: its own secrets whose names the running version declares. A value
     * that does not open (sealed under another master secret, or altered) is left out, with a warning naming it.
     */
    public Map<String, String> environment(UUID agentId, Collection<String> declared) {
        var env = new LinkedHashMap<String, String>();
        if (declared.isEmpty()) {
            return env;
        }
        for (AgentSecret s : secretsOf(agentId)) {
            if (declared.contains(s.name())) {
                cipher.open(agentId, s.name(), new SecretCipher.Sealed(s.nonce(), s.ciphertext()))
                        .ifPresentOrElse(v -> env.put(s.name(), v), () -> LOG.warning(() -> "Secret " + s.name()
                                + " of agent " + agentId + " does not open with the current master secret; the run "
                                + "goes without it"));
            }
        }
        return env;
    }

    private Agent authored(UUID agentId, long userId, LockModeType lock) {
        Agent agent = em.find(Agent.class, agentId, lock);
        if (agent == null || !agent.isAuthor(userId)) {
            throw BusinessException.notFound("Agent");
        }
        return agent;
    }

    private List<AgentSecret> secretsOf(UUID agentId) {
        return em.createQuery("SELECT s FROM AgentSecret s WHERE s.agentId = :agent ORDER BY s.name",
                AgentSecret.class).setParameter("agent", agentId).getResultList();
    }

    private Set<String> declared(Agent agent) {
        return agents.current(agent).map(v -> Set.copyOf(Permissions.of(v.cardJson()).allowedEnvVars()))
                .orElse(Set.of());
    }
}
