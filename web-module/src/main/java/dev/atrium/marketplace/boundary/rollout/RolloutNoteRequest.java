package dev.atrium.marketplace.boundary.rollout;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** An administrator's rollout move, with the note that goes into the history. */
public record RolloutNoteRequest(
        @NotBlank @Size(max = 3000) @Schema(description = "Why; recorded in the agent's history") String note) {
}
