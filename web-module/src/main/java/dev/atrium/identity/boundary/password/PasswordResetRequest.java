package dev.atrium.identity.boundary.password;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** The token of the mailed reset link and the new password. */
public record PasswordResetRequest(@NotBlank @Size(max = 100) String token,
                                   @NotNull @Size(max = 256) String newPassword) {
}
