package dev.atrium.content.boundary;

import java.util.List;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import dev.atrium.content.control.ArticleDraft;

/** A new article; it starts as a draft. Tags are names, created when first used. */
public record ArticleCreateRequest(
        @NotBlank @Size(max = 200) String title,
        @NotBlank @Size(max = 100_000) String body,
        @Size(max = 500) String summary,
        @Size(max = 10) List<String> tags) {

    ArticleDraft toDraft() {
        return new ArticleDraft(title, body, summary, tags);
    }
}
