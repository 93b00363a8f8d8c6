package dev.atrium.marketplace.boundary.search;

import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.control.search.SearchService;

/** One agent found by search, with its cosine distance to the query. */
public record SearchHitView(
        UUID id,
        String name,
        String displayName,
        String description,
        double qualityScore,
        long downloads,
        @Schema(description = "1 - cosine similarity between the query and the agent's capability embedding (0 to 2)")
        double distance) {

    static SearchHitView from(SearchService.Found found) {
        var a = found.agent();
        return new SearchHitView(a.id(), a.name(), a.displayName(), a.description(), a.qualityScore(), a.downloads(),
                found.distance());
    }
}
