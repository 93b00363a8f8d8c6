package dev.atrium.identity.boundary.account;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** The address of an unverified account that wants a new verification link. */
public record VerificationResendRequest(@NotBlank @Size(max = 320) String email) {
}
