package dev.atrium.marketplace.boundary.runtime;

import jakarta.validation.constraints.NotNull;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A secret's new value; its limits are the secret's own rules (AgentSecret), checked with the name. */
public record SecretRequest(
        @NotNull @Schema(description = "1 to 4096 bytes of UTF-8, no NUL; never shown again", writeOnly = true)
        String value) {

    @Override
    public String toString() {
        return "SecretRequest[value=…]";
    }
}
