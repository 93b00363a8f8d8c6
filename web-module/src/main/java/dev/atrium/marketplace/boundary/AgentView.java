package dev.atrium.marketplace.boundary;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.identity.control.UserSummary;
import dev.atrium.marketplace.control.registry.AgentService;
import dev.atrium.marketplace.control.runtime.AgentLimits;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.Permissions;

/** The agent record of spec 03 as the API shows it. */
public record AgentView(
        UUID id,
        @Schema(description = "Unique slug") String name,
        String displayName,
        long authorId,
        @Schema(description = "The author's username", nullable = true) String authorName,
        String description,
        @Schema(description = "Semantic version MAJOR.MINOR.PATCH") String version,
        @Schema(description = "The full agent card as submitted") Object agentCard,
        List<String> capabilities,
        @Schema(description = "The card's pricing object", nullable = true) Object pricing,
        @Schema(description = "The listed price in USD: pricing.price_usd (per call, per 1,000 tokens or per month "
                + "by the pricing model), 0 without pricing; what price_min and price_max compare")
        BigDecimal priceUsd,
        @Schema(enumeration = {"unverified", "community", "official"}) String trustLevel,
        @Schema(enumeration = {"pending", "active", "suspended", "rejected"},
                description = "pending = waiting for review; active = listed and searchable; suspended = taken down; "
                        + "rejected = turned down at review")
        String status,
        @Schema(description = "Distinct users who ever installed the agent; uninstalling does not lower it")
        long downloads,
        @Schema(description = "The reviews' mean rounded half up, 1 to 5; 0 before any review") int avgRating,
        @Schema(description = "The exact mean of the reviews' ratings (0 before any review); ranking uses it")
        double avgRatingExact,
        long reviewCount,
        String dockerImage,
        String category,
        @Schema(description = "0 to 5") double qualityScore,
        long totalCalls,
        @Schema(description = "The spec's ranking score, 0 to 1") double rankingScore,
        @Schema(enumeration = {"not_run", "passed", "failed"},
                description = "Smoke tests at submission; not_run for an image-only agent or a card without test cases")
        String smokeTests,
        @Schema(description = "What a run of the current version may use: the card's declaration within its trust "
                + "level's ceilings (a declaration above a ceiling is capped)")
        LimitsView limits,
        Instant createdAt,
        Instant updatedAt,
        @Schema(nullable = true, description = "The agents this one calls (its card's dependencies.agents), each with "
                + "the pricing of the listed agent it names now: a call may add their prices, within the "
                + "Atrium-Max-Price-Usd the caller agrees to. Shown on GET /v1/agents/{id}; null in lists")
        List<DependencyView> dependencies,
        Map<String, String> _links) {

    public static final String BASE = "/v1/agents/";

    /** A declared dependency and the pricing of the agent it names (null when none is listed under the name). */
    public record DependencyView(String name, @Schema(description = "The declared version range") String version,
                                 @Schema(nullable = true) UUID agentId,
                                 @Schema(nullable = true, description = "The named agent's pricing object")
                                 Object pricing) {
    }

    /** The effective limits of a run ({@link AgentLimits}). */
    public record LimitsView(int memoryMb, int timeoutS, @Schema(description = "Percent of one CPU") int cpuPercent,
                             @Schema(description = "Whether network is granted (declared and allowed)")
                             boolean network) {

        static LimitsView of(Agent a) {
            var limits = AgentLimits.effective(Permissions.of(a.cardJson()), a.trustLevel());
            return new LimitsView(limits.memoryMb(), limits.timeoutS(), limits.cpuPercent(), limits.network());
        }
    }

    public static AgentView from(Agent a, Map<Long, UserSummary> authors) {
        return from(a, authors, null);
    }

    public static AgentView from(Agent a, Map<Long, UserSummary> authors, List<AgentService.DeclaredDependency> dependencies) {
        var links = new LinkedHashMap<String, String>();
        links.put("self", BASE + a.id());
        links.put("history", BASE + a.id() + "/history");
        links.put("a2a_card", BASE + a.id() + "/a2a-card");
        links.put("mcp_tool", BASE + a.id() + "/mcp-tool");
        links.put("reviews", BASE + a.id() + "/reviews");
        links.put("installations", BASE + a.id() + "/installations");
        UserSummary author = authors.get(a.authorId());
        return new AgentView(a.id(), a.name(), a.displayName(), a.authorId(), author == null ? null : author.username(),
                a.description(), a.version().toString(), JsonValues.object(a.cardJson()),
                JsonValues.strings(a.capabilitiesJson()), JsonValues.object(a.pricingJson()), a.priceUsd(),
                a.trustLevel().value(),
                a.status().value(), a.downloads(), a.avgRating(), a.avgRatingExact(), a.reviewCount(), a.dockerImage(), a.category(), a.qualityScore(),
                a.totalCalls(), a.rankingScore(), a.smokeStatus().value(), LimitsView.of(a), a.createdAt(), a.updatedAt(),
                dependencies == null ? null : dependencies.stream().map(d -> new DependencyView(d.name(),
                        d.versionRange(), d.agentId(), d.pricingJson() == null ? null : JsonValues.object(d.pricingJson()))).toList(), links);
    }
}
