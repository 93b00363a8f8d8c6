package dev.atrium.identity.boundary.password;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** The address to send a reset link to. */
public record PasswordForgotRequest(@NotBlank @Size(max = 320) String email) {
}
