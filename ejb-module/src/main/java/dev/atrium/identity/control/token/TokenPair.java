package dev.atrium.identity.control.token;

/** What a successful login in token mode hands out. */
public record TokenPair(String accessToken, String refreshToken) {
}
