package dev.atrium.identity.control.oauth;

import java.util.Locale;
import java.util.Optional;

/**
 * One configured external provider ({@code atrium.oauth.<name>.*}). Endpoints not configured are taken from the
 * issuer's discovery document. {@code clientSecret} is empty for a public client, which then relies on PKCE alone;
 * {@code clientAuthMethod} is empty when the discovery document should decide.
 */
public record OAuthProvider(String name, String clientId, Optional<String> clientSecret, Optional<String> issuer,
                            Optional<String> authorizationEndpoint, Optional<String> tokenEndpoint,
                            Optional<String> userinfoEndpoint, Optional<String> jwksUri, String scope,
                            String redirectUri, Optional<ClientAuthMethod> clientAuthMethod) {

    public static final String DEFAULT_SCOPE = "openid email profile";

    /** How the client proves itself at the token endpoint (RFC 6749 2.3.1). */
    public enum ClientAuthMethod {
        CLIENT_SECRET_BASIC,
        CLIENT_SECRET_POST,
        NONE;

        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Optional<ClientAuthMethod> of(String value) {
            for (var m : values()) {
                if (m.value().equalsIgnoreCase(value.strip())) {
                    return Optional.of(m);
                }
            }
            return Optional.empty();
        }
    }

    /** Whether everything the flow needs is configured, so that no discovery document has to be read. */
    public boolean fullyConfigured() {
        return authorizationEndpoint.isPresent() && tokenEndpoint.isPresent()
                && (userinfoEndpoint.isPresent() || jwksUri.isPresent());
    }

    @Override
    public String toString() {
        // never the secret, not even in a log line
        return "OAuthProvider[" + name + ", client " + clientId + ", issuer " + issuer.orElse("-") + "]";
    }
}
