package dev.atrium.identity.control.login;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import dev.atrium.identity.control.Caller;
import dev.atrium.identity.control.Hashes;
import dev.atrium.identity.control.RequestOrigin;
import dev.atrium.identity.control.account.PermissionCatalog;
import dev.atrium.identity.control.account.UserRepository;
import dev.atrium.identity.control.token.InvalidTokenException;
import dev.atrium.identity.control.token.TokenService;
import dev.atrium.identity.control.token.VerifiedToken;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.error.BusinessException;

/**
 * Turns a presented credential into a {@link Caller}. Bearer tokens: the token is verified (HS256 access token, or
 * RS256 SSO token), must not be on the blacklist, and its user must still exist, be active and not have had its
 * credentials revoked since the token was issued ({@link KnownCallers} keeps what it can of this between requests).
 * Any failure is one answer: 401.
 * Session cookies: an unknown, expired or foreign session is simply no session.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class Authenticator {

    public static final String INVALID = "Invalid or expired credentials";

    @Inject
    KnownCallers known;

    @Inject
    SessionService sessions;

    @Inject
    UserRepository users;

    @Inject
    PermissionCatalog permissions;

    @EJB
    ApiKeyService apiKeys;

    /** An access token ({@code ey…}), an SSO token, or an API key ({@code sk-…}); anything else is 401. */
    public Caller bearer(String credential) {
        if (credential != null && credential.startsWith(ApiKeyService.PREFIX)) {
            User user = apiKeys.owner(credential).flatMap(users::findWithRoles).filter(User::isActive)
                    .orElseThrow(() -> BusinessException.unauthenticated(INVALID));
            return caller(user, "api_key", Hashes.sha256(credential).substring(0, 16), null, null, null);
        }
        return accessToken(credential);
    }

    /**
     * An access token or SSO token only, never an API key: for credentials that travel in a URL (the WebSocket's
     * {@code token} parameter), where a long-lived key would end up in access logs and proxies.
     */
    public Caller accessToken(String credential) {
        KnownCallers.Presented presented;
        try {
            TokenService.checkShape(credential);
            if (!credential.startsWith("ey")) {
                throw new InvalidTokenException(InvalidTokenException.Reason.MALFORMED);
            }
            presented = known.present(credential);
        } catch (InvalidTokenException e) {
            throw BusinessException.unauthenticated(INVALID);
        }
        VerifiedToken token = presented.token();
        KnownCallers.KnownUser user = known.user(token.userId(), presented.userVersion())
                .filter(u -> u.accepts(token.issuedAt()))
                .orElseThrow(() -> BusinessException.unauthenticated(INVALID));
        return new Caller(user.id(), user.username(), user.email(), user.role(), user.groups(), user.permissions(),
                "RS256".equals(token.algorithm()) ? "sso" : "jwt", token.tokenId(), token.expiresAt(), credential,
                null);
    }

    public Optional<Caller> session(String sessionId, RequestOrigin origin) {
        return sessions.find(sessionId, origin).flatMap(s -> users.findWithRoles(s.userId())
                .filter(User::isActive).filter(u -> u.accepts(s.createdAt()))
                .map(u -> caller(u, "session", null, s.createdAt().plus(SessionService.LIFETIME), null, s.id())));
    }

    Caller caller(User user, String kind, String tokenId, Instant expiresAt, String raw, String sessionId) {
        var roles = Set.copyOf(user.roleNames());
        return new Caller(user.id(), user.username(), user.email().value(), user.role(), roles,
                permissions.permissionsOf(roles), kind, tokenId, expiresAt, raw, sessionId);
    }
}
