package dev.atrium.content.boundary;

import java.util.List;

import jakarta.validation.constraints.Size;

import dev.atrium.content.control.ArticleChanges;
import dev.atrium.platform.boundary.json.Patch;

/** A partial article: only the fields sent change; {@code id} names the article in a batch update. */
public record ArticlePatchRequest(
        Long id,
        @Size(min = 1, max = 200) String title,
        @Size(min = 1, max = 100_000) String body,
        @Size(max = 500) String summary,
        @Size(max = 10) List<String> tags) {

    static ArticleChanges changes(Patch<ArticlePatchRequest> patch) {
        return new ArticleChanges(patch.value().id(), patch.change("title", ArticlePatchRequest::title),
                patch.change("body", ArticlePatchRequest::body),
                patch.change("summary", ArticlePatchRequest::summary),
                patch.change("tags", ArticlePatchRequest::tags));
    }
}
