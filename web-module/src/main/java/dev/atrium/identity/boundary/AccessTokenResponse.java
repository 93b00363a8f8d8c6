package dev.atrium.identity.boundary;

/** A refreshed access token. */
public record AccessTokenResponse(String accessToken, String tokenType) {
}
