package dev.atrium.marketplace.boundary;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A user's review of an agent: a rating and a comment (which may be empty), plain text without control characters. */
public record AgentReviewRequest(
        @NotNull @Min(1) @Max(5) @Schema(description = "1 to 5") Integer rating,
        @NotNull @Size(max = 4000)
        @Pattern(regexp = "[^\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F]*", message = "must not hold control characters")
        String comment) {
}
