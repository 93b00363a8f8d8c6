package dev.atrium.marketplace.boundary.search;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.control.search.SearchService;

/** The spec's search answer. */
public record SearchResponse(
        List<SearchHitView> agents,
        @Schema(description = "How many active agents matched the filters (the ranked candidates)") long total) {

    public static SearchResponse from(SearchService.Result result) {
        return new SearchResponse(result.agents().stream().map(SearchHitView::from).toList(), result.total());
    }
}
