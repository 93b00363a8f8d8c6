package dev.atrium.marketplace.boundary.submission;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The smoke tests' outcome: {@code passed}, or {@code not_run} for an image-only agent or a card without test cases
 * (a failure rejects the submission, so a stored one never shows {@code failed}).
 */
public record SmokeTestsView(
        @Schema(enumeration = {"not_run", "passed", "failed"}) String status,
        @Schema(nullable = true) String detail) {
}
