package dev.atrium.content.control;

import java.util.List;

import dev.atrium.platform.patch.Change;

/** A partial update of an article; {@code id} is used by batch updates. */
public record ArticleChanges(Long id, Change<String> title, Change<String> body, Change<String> summary,
                             Change<List<String>> tags) {
}
