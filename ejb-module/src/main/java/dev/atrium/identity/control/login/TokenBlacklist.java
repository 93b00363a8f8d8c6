package dev.atrium.identity.control.login;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.atrium.identity.control.Hashes;
import dev.atrium.platform.kv.KeyValueStore;

/**
 * Tokens revoked before their expiry (logout). An entry is keyed by the token's SHA-256 and lives exactly as long
 * as the token would; nothing is stored for a token that has already expired.
 */
@ApplicationScoped
public class TokenBlacklist {

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    public void add(String token, Instant expiresAt) {
        Duration remaining = Duration.between(clock.instant(), expiresAt);
        if (remaining.isNegative() || remaining.isZero()) {
            return;
        }
        store.set(key(token), "1", remaining);
    }

    /** Where the store keeps the token's revocation. */
    static String key(String token) {
        return "blacklist:" + Hashes.sha256(token);
    }
}
