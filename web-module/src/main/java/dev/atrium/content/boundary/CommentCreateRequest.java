package dev.atrium.content.boundary;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** A new comment. */
public record CommentCreateRequest(@NotBlank @Size(max = 5000) String body) {
}
