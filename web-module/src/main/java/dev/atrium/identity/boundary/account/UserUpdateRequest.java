package dev.atrium.identity.boundary.account;

import jakarta.validation.constraints.Size;

/** Spec 02's UserUpdate: every field optional; only the fields sent change. */
public record UserUpdateRequest(
        @Size(min = 1, max = 50) String username,
        @Size(max = 500) String avatar,
        @Size(max = 2000) String bio) {
}
