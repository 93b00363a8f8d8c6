package dev.atrium.marketplace.boundary.search;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.control.search.SearchService;

/** The task's analysis and the agents recommended for it, nearest first. */
public record RecommendationResponse(TaskAnalysisView analysis, List<SearchHitView> agents, long total) {

    /** The spec's analysis of a task. */
    public record TaskAnalysisView(
            @Schema(description = "Capabilities of listed agents close to the task, closest first")
            List<String> requiredCapabilities,
            @Schema(nullable = true, description = "The closest category of listed agents, if any is close")
            String category) {
    }

    static RecommendationResponse from(SearchService.Recommendation r) {
        return new RecommendationResponse(new TaskAnalysisView(r.analysis().requiredCapabilities(),
                r.analysis().category()), r.result().agents().stream().map(SearchHitView::from).toList(),
                r.result().total());
    }
}
