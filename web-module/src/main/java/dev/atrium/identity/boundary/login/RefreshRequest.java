package dev.atrium.identity.boundary.login;

/** {@code {"refresh_token": …}}, for refresh and for revoking a refresh token at logout. */
public record RefreshRequest(String refreshToken) {
}
