package dev.atrium.identity.boundary.login;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** Spec 01 LoginForm plus where to go afterwards. */
public record SsoLoginRequest(@NotBlank @Size(max = 320) String email, @NotBlank @Size(max = 256) String password,
                              @NotBlank @Size(max = 2000) String redirectUrl) {
}
