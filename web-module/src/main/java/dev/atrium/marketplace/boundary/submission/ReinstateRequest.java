package dev.atrium.marketplace.boundary.submission;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A reviewer lifting a takedown, with the note that goes into the history. */
public record ReinstateRequest(
        @NotBlank @Size(max = 3000) @Schema(description = "What the review found; recorded in the history")
        String note) {
}
