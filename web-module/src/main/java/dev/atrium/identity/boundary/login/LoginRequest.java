package dev.atrium.identity.boundary.login;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** Spec 01's LoginForm. */
public record LoginRequest(@NotBlank @Size(max = 320) String email, @NotBlank @Size(max = 256) String password) {
}
