package dev.atrium.identity.boundary.admin;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** {@code {"role": "pro_user"}}. */
public record RoleGrantRequest(@NotBlank @Size(max = 50) String role) {
}
