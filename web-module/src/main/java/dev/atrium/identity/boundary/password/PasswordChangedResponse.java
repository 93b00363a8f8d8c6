package dev.atrium.identity.boundary.password;

/**
 * After a password change: every earlier session and token has ended; in token mode the caller continues with
 * these new tokens (null in session mode, where a new session cookie is set instead).
 */
public record PasswordChangedResponse(String message, String accessToken, String refreshToken, String tokenType) {
}
