package dev.atrium.marketplace.boundary.search;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A task to find agents for. */
public record RecommendationRequest(
        @NotBlank @Size(max = 2000) String task,
        @Min(1) @Max(100) @Schema(defaultValue = "5") Integer topK) {
}
