package dev.atrium.marketplace.boundary.trust;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** An administrator's trust change after an audit, with the note that goes into the history. */
public record TrustRequest(
        @NotNull @Pattern(regexp = "unverified|community|community_verified|official")
        @Schema(enumeration = {"unverified", "community", "official"}) String level,
        @NotBlank @Size(max = 3000) @Schema(description = "What the audit found; recorded in the history")
        String note) {
}
