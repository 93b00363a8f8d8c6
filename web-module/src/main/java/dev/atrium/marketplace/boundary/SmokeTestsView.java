package dev.atrium.marketplace.boundary;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The smoke step's outcome; {@code not_run} until the sandbox exists, never a claimed pass. */
public record SmokeTestsView(
        @Schema(enumeration = {"not_run", "passed", "failed"}) String status,
        @Schema(nullable = true) String detail) {
}
