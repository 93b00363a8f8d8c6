package dev.atrium.identity.control.login;

import java.util.Locale;
import java.util.Set;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import dev.atrium.identity.control.Hashes;
import dev.atrium.identity.control.RequestOrigin;
import dev.atrium.identity.control.account.PermissionCatalog;
import dev.atrium.identity.control.account.UserRepository;
import dev.atrium.identity.control.audit.AuditAction;
import dev.atrium.identity.control.audit.AuditService;
import dev.atrium.identity.control.password.PasswordHasher;
import dev.atrium.identity.control.token.InvalidTokenException;
import dev.atrium.identity.control.token.TokenPair;
import dev.atrium.identity.control.token.TokenService;
import dev.atrium.identity.control.token.TokenType;
import dev.atrium.identity.control.token.VerifiedToken;
import dev.atrium.identity.entity.EmailAddress;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * Password login, in token or session mode, and token refresh. The checks run in this order: the per-address
 * attempt limit (429) first, so one address spraying many accounts is stopped before it can lock any of them; then
 * the account lock (423), before the password is looked at, so a locked account reveals nothing; then the
 * credentials. An unknown e-mail and a wrong password get the same answer in the same time.
 */
@Stateless
public class LoginService {

    static final String WRONG_CREDENTIALS = "Incorrect e-mail or password";
    static final String NOT_VERIFIED = "Account not verified: follow the link in the verification e-mail first, "
            + "or ask for a new one with POST /verify-email/resend";

    @Inject
    UserRepository users;

    @Inject
    PasswordHasher hasher;

    @Inject
    TokenService tokens;

    @Inject
    TokenBlacklist blacklist;

    @Inject
    KnownCallers known;

    @Inject
    SessionService sessions;

    @Inject
    LoginGuard guard;

    @Inject
    LoginMonitor monitor;

    @EJB
    AuditService audit;

    @Inject
    SecuritySignals signals;

    @Inject
    PermissionCatalog permissions;

    public TokenPair login(String email, String password, RequestOrigin origin) {
        return pairFor(authenticateUser(email, password, origin));
    }

    /** Session mode: a new session at every login; the one the request came with, if any, ends. */
    public Session loginSession(String email, String password, RequestOrigin origin, String previousSessionId) {
        User user = authenticateUser(email, password, origin);
        sessions.destroy(previousSessionId);
        return sessions.create(user.id(), origin);
    }

    /**
     * The operators' console: a cookie session whatever the deployment's login mode (a browser console keeps no
     * token where a script could read it), for a user holding at least one of {@code accepted}. Anyone else is
     * refused after the password check, and no session is made.
     */
    public Session loginConsole(String email, String password, RequestOrigin origin, String previousSessionId,
                                Set<String> accepted) {
        User user = authenticateUser(email, password, origin);
        if (permissions.permissionsOf(user.roleNames()).stream().noneMatch(accepted::contains)) {
            throw BusinessException.forbidden("This account has no access to the operators' console");
        }
        sessions.destroy(previousSessionId);
        return sessions.create(user.id(), origin);
    }

    /** Tokens for a user who proved who they are elsewhere (external provider, SSO); audited as {@code action}. */
    public TokenPair tokensFor(User user, RequestOrigin origin, AuditAction action) {
        audit.record(action, user.id(), origin, true);
        signals.loggedIn(user.id(), origin.ipAddress());
        return pairFor(user);
    }

    /**
     * A new access token, with the user's current role, for a valid refresh token. A refresh token seen from two
     * networks at once is revoked here when {@link SecuritySignals} says so: this refresh and every later one with
     * it answer 401, so the thief and the user alike must log in again (the thief would need the password).
     */
    public String refresh(String refreshToken, RequestOrigin origin) {
        VerifiedToken token;
        String version;
        try {
            TokenService.checkShape(refreshToken);
            token = tokens.verify(refreshToken, TokenType.REFRESH);
            version = known.versionForRefresh(token);
        } catch (InvalidTokenException e) {
            throw BusinessException.unauthenticated(Authenticator.INVALID);
        }
        // the user as a bearer request finds it: kept under its current version, read again after any change
        KnownCallers.KnownUser user = known.user(token.userId(), version).filter(u -> u.accepts(token.issuedAt()))
                .orElseThrow(() -> BusinessException.unauthenticated(Authenticator.INVALID));
        if (signals.refreshed(user.id(), familyOf(token), origin.ipAddress())) {
            blacklist.add(refreshToken, token.expiresAt());
            throw BusinessException.unauthenticated(Authenticator.INVALID);
        }
        audit.record(AuditAction.REFRESH, user.id(), origin, true);
        return tokens.issue(TokenType.ACCESS, user.id(), user.role());
    }

    /** What names a refresh token in the shared store: its {@code jti}, or its hash; never the token. */
    static String familyOf(VerifiedToken token) {
        return token.tokenId() != null && !token.tokenId().isEmpty() ? token.tokenId() : Hashes.sha256(token.raw());
    }

    private TokenPair pairFor(User user) {
        return new TokenPair(tokens.issue(TokenType.ACCESS, user.id(), user.role()),
                tokens.issue(TokenType.REFRESH, user.id(), user.role()));
    }

    /** The user behind these credentials, with every login limit applied and the attempt audited. */
    public User authenticateUser(String email, String password, RequestOrigin origin) {
        if (email == null || email.isBlank() || password == null || password.isEmpty()) {
            throw BusinessException.validation("email and password are required");
        }
        boolean failuresOnRecord;
        try {
            guard.countAttempt(origin.ipAddress());
            failuresOnRecord = guard.checkNotLocked(email);
        } catch (BusinessException refused) {
            audit.record(AuditAction.LOGIN, null, origin, false);
            monitor.record(false, origin.ipAddress());
            throw refused;
        }
        User user = lookup(email);
        boolean matches;
        if (user == null) {
            hasher.burnTime(password);
            matches = false;
        } else {
            matches = user.hashedPassword().map(h -> hasher.matches(password, h)).orElse(false);
        }
        if (!matches) {
            boolean lockedNow = guard.recordFailure(email);
            Long id = user == null ? null : user.id();
            audit.record(AuditAction.LOGIN, id, origin, false);
            monitor.record(false, origin.ipAddress());
            if (lockedNow) {
                audit.record(AuditAction.LOCKOUT, id, origin, true);
                throw guard.lockedNow();
            }
            throw new BusinessException(Problem.WRONG_CREDENTIALS, WRONG_CREDENTIALS);
        }
        if (!user.isActive()) {
            audit.record(AuditAction.LOGIN, user.id(), origin, false);
            throw inactive(user);
        }
        // a failure recorded meanwhile may stay: as if it had come after this login
        if (failuresOnRecord) {
            guard.clearFailures(email);
        }
        audit.record(AuditAction.LOGIN, user.id(), origin, true);
        monitor.record(true, origin.ipAddress());
        signals.loggedIn(user.id(), origin.ipAddress());
        return user;
    }

    /**
     * Why a user whose credentials are right may not log in: deactivated by an administrator (10005), which no
     * verification lifts, or not yet verified (40300, with the way out).
     */
    public static BusinessException inactive(User user) {
        if (user.isDeactivated()) {
            return new BusinessException(Problem.ACCOUNT_DEACTIVATED,
                    "Account deactivated by an administrator: contact the administrators to have it reactivated");
        }
        return new BusinessException(Problem.FORBIDDEN, NOT_VERIFIED);
    }

    private User lookup(String email) {
        try {
            return users.findByEmail(EmailAddress.of(email.toLowerCase(Locale.ROOT))).orElse(null);
        } catch (BusinessException malformed) {
            return null;
        }
    }
}
