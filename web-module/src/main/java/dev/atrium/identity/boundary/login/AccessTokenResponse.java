package dev.atrium.identity.boundary.login;

/** A refreshed access token. */
public record AccessTokenResponse(String accessToken, String tokenType) {
}
