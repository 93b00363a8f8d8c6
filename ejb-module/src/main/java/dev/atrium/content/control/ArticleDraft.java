package dev.atrium.content.control;

import java.util.List;

/** What a new article is made of; tags are names, created when first used. */
public record ArticleDraft(String title, String body, String summary, List<String> tags) {

    public ArticleDraft {
        tags = tags == null ? List.of() : List.copyOf(tags);
    }
}
