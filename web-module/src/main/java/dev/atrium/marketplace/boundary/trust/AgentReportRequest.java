package dev.atrium.marketplace.boundary.trust;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A user's security report: what kind of problem, and what exactly they saw. */
public record AgentReportRequest(
        @NotNull
        @Pattern(regexp = "malicious_code|data_exfiltration|undeclared_access|prompt_injection|credential_theft|other")
        @Schema(enumeration = {"malicious_code", "data_exfiltration", "undeclared_access", "prompt_injection",
                "credential_theft", "other"})
        String reason,
        @NotBlank @Size(max = 4000) String details) {
}
