package dev.atrium.identity.control.login;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.StringReader;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.atrium.identity.control.Hashes;
import dev.atrium.platform.kv.KeyValueStore;

/**
 * CSRF tokens (spec 01): 32 random bytes, URL-safe, valid 3600 s, usable once, bound to what obtained them: a
 * token issued to a session is accepted only with that session, and one issued without a session only with the
 * same browser binding it was issued to (the SSO login form's cookie) — never by a session.
 */
@ApplicationScoped
public class CsrfTokens {

    public static final Duration LIFETIME = Duration.ofSeconds(3600);

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    public String issue(String sessionId) {
        String token = Hashes.randomToken(32);
        store.set(key(token), JSON.createObjectBuilder()
                .add("session", sessionId == null ? "" : sessionId)
                .add("issued_at", clock.instant().toString()).build().toString(), LIFETIME);
        return token;
    }

    /**
     * Consumes the token: {@code true} only once, within its lifetime, and for exactly the binding it was issued to
     * (a session id, or another value the caller chose).
     */
    public boolean consume(String token, String sessionId) {
        if (token == null || token.isBlank() || token.length() > 100) {
            return false;
        }
        return store.getAndDelete(key(token)).map(value -> {
            var o = JSON.createReader(new StringReader(value)).readObject();
            String boundTo = o.getString("session", "");
            boolean fresh = clock.instant().isBefore(Instant.parse(o.getString("issued_at")).plus(LIFETIME));
            return fresh && !boundTo.isEmpty() && boundTo.equals(sessionId);
        }).orElse(false);
    }

    private static String key(String token) {
        return "csrf:" + Hashes.sha256(token);
    }
}
