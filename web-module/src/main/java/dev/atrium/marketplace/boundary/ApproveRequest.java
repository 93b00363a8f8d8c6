package dev.atrium.marketplace.boundary;

import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A reviewer's approval; the trust level stays as it is unless granted here. */
public record ApproveRequest(
        @Pattern(regexp = "unverified|community|community_verified|official")
        @Schema(nullable = true, description = "Grant a trust level with the approval (after the spec's checks)")
        String trustLevel,
        @Size(max = 4000) @Schema(nullable = true) String note) {
}
