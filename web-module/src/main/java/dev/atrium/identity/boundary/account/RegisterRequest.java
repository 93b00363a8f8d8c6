package dev.atrium.identity.boundary.account;

import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** Spec 01 registration, and spec 02's UserCreate. The password rules are checked by the identity service. */
public record RegisterRequest(
        @NotBlank @Email @Size(max = 320) String email,
        @NotBlank @Size(max = 50) String username,
        @NotNull @Size(max = 256) String password) {
}
