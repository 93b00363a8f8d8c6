package dev.atrium.marketplace.boundary.submission;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A manual takedown: one of the spec's reasons, and what exactly is wrong. */
public record TakedownRequest(
        @NotNull @Pattern(regexp = "description_seriously_wrong|hidden_charging|copying_another_developer")
        @Schema(enumeration = {"description_seriously_wrong", "hidden_charging", "copying_another_developer"})
        String reason,
        @NotBlank @Size(max = 4000) String details) {
}
