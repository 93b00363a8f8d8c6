package dev.atrium.identity.control.oauth;

import java.time.Instant;

/**
 * What the service remembers between sending a browser to a provider and its coming back: the {@code state} value
 * itself, the PKCE verifier and the nonce for that one request, the redirect URI sent, and, when a logged-in user
 * asked to bind another provider, that user.
 */
public record AuthorizationState(String state, String provider, String codeVerifier, String nonce,
                                 String redirectUri, Long linkUserId, Instant issuedAt) {

    public boolean linking() {
        return linkUserId != null;
    }
}
