package dev.atrium.marketplace.boundary.submission;

import jakarta.validation.constraints.Null;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A reviewer's approval. It lists the agent and grants no trust: a {@code trust_level} in the body is refused (422)
 * rather than silently ignored, so that a client still sending it learns that nothing was granted.
 */
public record ApproveRequest(
        @Null(message = "trust is never granted at approval: every agent starts unverified, is promoted to community "
                + "by its use and to official by an administrator (POST /v1/admin/agents/{id}/trust)")
        @Schema(nullable = true, description = "Must be absent: trust is never granted at approval (422 otherwise)")
        Object trustLevel,
        @Size(max = 4000) @Schema(nullable = true) String note) {
}
