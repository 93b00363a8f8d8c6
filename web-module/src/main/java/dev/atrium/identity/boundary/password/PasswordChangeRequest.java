package dev.atrium.identity.boundary.password;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** The current password and the new one; the new one follows the password rules. */
public record PasswordChangeRequest(@NotNull @Size(max = 256) String oldPassword,
                                    @NotNull @Size(max = 256) String newPassword) {
}
