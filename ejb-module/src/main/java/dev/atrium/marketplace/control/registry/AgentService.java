package dev.atrium.marketplace.control.registry;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.identity.control.UserService;
import dev.atrium.identity.control.UserSummary;
import dev.atrium.marketplace.control.Requester;
import dev.atrium.marketplace.control.submission.DependencyResolver;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentEvent;
import dev.atrium.marketplace.entity.AgentStatus;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.SubmissionStatus;
import dev.atrium.marketplace.entity.TrustLevel;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/**
 * Reading the registry. Active agents are public; an agent in any other status is seen by its author and by
 * reviewers only, and is "not found" for everyone else.
 */
@Stateless
public class AgentService {

    static final Catalog<Agent> AGENTS = Catalog.of(Agent.class)
            .id("id", UUID.class)
            .createdAt("createdAt")
            .filterable("category", "category", String.class)
            .filterable("author_id", "authorId", Long.class)
            .filterable("trust_level", "trustLevel", TrustLevel.class)
            .filterable("status", "status", AgentStatus.class)
            .filterable("name", "name", String.class)
            .sortable("ranking_score", "rankingScore", Double.class, true)
            .sortable("quality_score", "qualityScore", Double.class, true)
            .sortable("downloads", "downloads", Long.class, true)
            .sortable("updated_at", "updatedAt", Instant.class, true)
            .sortable("name", "name", String.class, true)
            .sortable("price_usd", "priceUsd", BigDecimal.class, true)
            .filter(PriceRange.MIN, (cb, q, root, values) ->
                    cb.greaterThanOrEqualTo(root.get("priceUsd"), PriceRange.bound(PriceRange.MIN, values)))
            .filter(PriceRange.MAX_PARAMETER, (cb, q, root, values) ->
                    cb.lessThanOrEqualTo(root.get("priceUsd"), PriceRange.bound(PriceRange.MAX_PARAMETER, values)))
            .search("name", "displayName", "description");

    static final Catalog<AgentVersion> VERSIONS = Catalog.of(AgentVersion.class)
            .id("id", UUID.class)
            .createdAt("createdAt")
            .filterable("status", "status", SubmissionStatus.class);

    static final Catalog<AgentEvent> EVENTS = Catalog.of(AgentEvent.class)
            .id("id", Long.class)
            .createdAt("createdAt");

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    UserService users;

    public Agent get(UUID id, Requester requester) {
        Agent agent = em.find(Agent.class, id);
        if (agent == null || !visible(agent, requester)) {
            throw BusinessException.notFound("Agent");
        }
        return agent;
    }

    /**
     * One declared agent dependency of an agent's current card, with the listed agent it resolves to now (null when
     * none is listed under that name) and that agent's pricing: what a call of the agent may add to the price.
     */
    public record DeclaredDependency(String name, String versionRange, UUID agentId, String pricingJson) {
    }

    /** The agent's declared agent dependencies, each with the pricing of the listed agent it names. */
    public List<DeclaredDependency> dependencies(Agent agent) {
        var declared = new ArrayList<DeclaredDependency>();
        for (var d : DependencyResolver.dependencies(agent.cardJson())) {
            String name = d.getString("name");
            var listed = em.createQuery("SELECT a FROM Agent a WHERE a.name = :name", Agent.class)
                    .setParameter("name", name).getResultStream().filter(Agent::isActive).findFirst();
            declared.add(new DeclaredDependency(name, d.getString("version"), listed.map(Agent::id).orElse(null),
                    listed.map(Agent::pricingJson).orElse(null)));
        }
        return declared;
    }

    /** Active agents only, unless a reviewer asks (the {@code status} filter is theirs). */
    public Listing<Agent> list(ListQuery query, Requester requester) {
        PriceRange.check(query);
        if (!requester.reviewer()) {
            var statuses = query.filter("status");
            if (statuses.isPresent() && !statuses.get().stream().allMatch(s -> s.equalsIgnoreCase("active"))) {
                throw BusinessException.forbidden("Filtering by a status other than active needs agent:review; "
                        + "your own agents are at /v1/me/agents");
            }
            return new EntityQuery<>(em, AGENTS).list(query,
                    (cb, q, root) -> cb.equal(root.get("status"), AgentStatus.ACTIVE));
        }
        return new EntityQuery<>(em, AGENTS).list(query);
    }

    /** The author's own agents, in every status. */
    public Listing<Agent> mine(long authorId, ListQuery query) {
        PriceRange.check(query);
        return new EntityQuery<>(em, AGENTS).list(query.withoutFilter("author_id"),
                (cb, q, root) -> cb.equal(root.get("authorId"), authorId));
    }

    /** Every move of the agent, for its author and reviewers. */
    public Listing<AgentEvent> history(UUID id, Requester requester, ListQuery query) {
        Agent agent = em.find(Agent.class, id);
        if (agent == null || !agent.isAuthor(requester.userId()) && !requester.reviewer()) {
            throw BusinessException.notFound("Agent");
        }
        return new EntityQuery<>(em, EVENTS).list(query,
                (cb, q, root) -> cb.equal(root.get("agentId"), id));
    }

    /**
     * The agent's versions, newest first by default: its approved ones for everyone who may see the agent, every
     * version (pending, rejected, superseded too) for its author and reviewers.
     */
    public Listing<AgentVersion> versions(UUID id, Requester requester, ListQuery query) {
        Agent agent = get(id, requester);
        boolean all = agent.isAuthor(requester.userId()) || requester.reviewer();
        return new EntityQuery<>(em, VERSIONS).list(query, (cb, q, root) -> all
                ? cb.equal(root.get("agentId"), id)
                : cb.and(cb.equal(root.get("agentId"), id), cb.equal(root.get("status"), SubmissionStatus.APPROVED)));
    }

    /** The authors of these agents by id, for their names. */
    public Map<Long, UserSummary> authors(Collection<Agent> agents) {
        return users.summaries(agents.stream().map(Agent::authorId).distinct().toList());
    }

    private static boolean visible(Agent agent, Requester requester) {
        return agent.isActive() || agent.isAuthor(requester.userId()) || requester.reviewer();
    }
}
