package dev.atrium.identity.control;

import java.time.Instant;
import java.util.Set;

/**
 * Who is calling, once a credential has been verified: the user, the role carried in tokens, all the user's roles
 * (the groups the container checks) and permissions, and how the caller proved it: {@code jwt}, {@code sso},
 * {@code session} (later {@code api_key}). {@code tokenId}/{@code rawToken} are set for tokens,
 * {@code sessionId} for sessions.
 */
public record Caller(long userId, String username, String email, String role, Set<String> groups,
                     Set<String> permissions, String credentialKind, String tokenId, Instant expiresAt,
                     String rawToken, String sessionId) {

    public Caller {
        groups = Set.copyOf(groups);
        permissions = Set.copyOf(permissions);
    }

    public boolean isAdmin() {
        return groups.contains("admin");
    }

    public boolean has(String permission) {
        return permissions.contains(permission);
    }

    public boolean bySession() {
        return "session".equals(credentialKind);
    }
}
