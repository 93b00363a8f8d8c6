package dev.atrium.identity.control.login;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import dev.atrium.identity.control.Caller;
import dev.atrium.identity.control.RequestOrigin;
import dev.atrium.identity.control.audit.AuditAction;
import dev.atrium.identity.control.audit.AuditService;
import dev.atrium.identity.control.token.InvalidTokenException;
import dev.atrium.identity.control.token.TokenService;
import dev.atrium.identity.control.token.TokenType;
import dev.atrium.identity.control.token.VerifiedToken;
import dev.atrium.platform.error.BusinessException;

/**
 * Logout: a bearer access token is blacklisted until its expiry, a session is destroyed at once, and a refresh
 * token sent along (or alone) is blacklisted too, so a logged-out user's refresh tokens stop working.
 */
@Stateless
public class LogoutService {

    @Inject
    TokenService tokens;

    @Inject
    TokenBlacklist blacklist;

    @Inject
    SessionService sessions;

    @EJB
    AuditService audit;

    /** Ends what the caller presented; {@code refreshToken} may be null. */
    public void logout(Caller caller, String refreshToken, RequestOrigin origin) {
        Long userId = caller == null ? null : caller.userId();
        if (refreshToken != null && !refreshToken.isBlank()) {
            VerifiedToken refresh;
            try {
                refresh = tokens.verify(refreshToken, TokenType.REFRESH);
            } catch (InvalidTokenException e) {
                throw BusinessException.unauthenticated("Invalid or expired refresh token");
            }
            if (userId != null && refresh.userId() != userId) {
                throw BusinessException.forbidden("The refresh token belongs to another user");
            }
            blacklist.add(refreshToken, refresh.expiresAt());
            userId = refresh.userId();
        } else if (caller == null) {
            throw BusinessException.unauthenticated("Nothing to log out: send a bearer token, the session cookie "
                    + "or a refresh_token");
        }
        if (caller != null && caller.bySession()) {
            sessions.destroy(caller.sessionId());
        } else if (caller != null && caller.rawToken() != null) {
            blacklist.add(caller.rawToken(), caller.expiresAt());
        }
        audit.record(AuditAction.LOGOUT, userId, origin, true);
    }
}
