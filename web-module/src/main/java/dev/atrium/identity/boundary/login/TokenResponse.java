package dev.atrium.identity.boundary.login;

import dev.atrium.identity.control.token.TokenPair;

/** Token-mode login: {@code access_token}, {@code refresh_token}, {@code token_type} = {@code bearer}. */
public record TokenResponse(String accessToken, String refreshToken, String tokenType) {

    public static TokenResponse from(TokenPair pair) {
        return new TokenResponse(pair.accessToken(), pair.refreshToken(), "bearer");
    }
}
