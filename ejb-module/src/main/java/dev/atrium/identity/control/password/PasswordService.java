package dev.atrium.identity.control.password;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.StringReader;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.identity.control.Caller;
import dev.atrium.identity.control.Hashes;
import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.identity.control.RequestOrigin;
import dev.atrium.identity.control.account.UserRepository;
import dev.atrium.identity.control.audit.AuditAction;
import dev.atrium.identity.control.audit.AuditService;
import dev.atrium.identity.control.login.Authenticator;
import dev.atrium.identity.control.login.KnownCallers;
import dev.atrium.identity.control.login.LoginGuard;
import dev.atrium.identity.control.login.SecuritySignals;
import dev.atrium.identity.control.login.SessionService;
import dev.atrium.identity.control.token.TokenPair;
import dev.atrium.identity.control.token.TokenService;
import dev.atrium.identity.control.token.TokenType;
import dev.atrium.identity.entity.EmailAddress;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.BaseUrl;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.mail.MailService;

/**
 * Changing one's password (knowing the old one) and resetting a forgotten one through a mailed link. The link
 * carries 32 random bytes, is valid 30 minutes and works once; only its hash is stored. Both end every session and
 * token of the user issued before; a change hands the caller fresh credentials so it stays logged in.
 */
@Stateless
public class PasswordService {

    public static final Duration RESET_LIFETIME = Duration.ofMinutes(30);
    static final int RESET_MAILS_PER_HOUR = 3;

    @Inject
    SecuritySignals signals;

    @Inject
    UserRepository users;

    @Inject
    PasswordHasher hasher;

    @Inject
    TokenService tokens;

    @Inject
    SessionService sessions;

    @Inject
    LoginGuard guard;

    @Inject
    KeyValueStore store;

    @EJB
    MailService mail;

    @EJB
    AuditService audit;

    @Inject
    KnownCallers callers;

    @Inject
    Clock clock;

    @Inject
    BaseUrl baseUrl;

    @Inject
    @ConfigProperties
    IdentityConfig config;

    /** Whether this can be a reset token at all (43 URL-safe characters), before anything is looked up. */
    public static boolean wellFormedResetToken(String token) {
        return token != null && token.matches("[A-Za-z0-9_-]{43}");
    }

    /** The link mailed: the configured front-end page, else this server's own form at {@code /password/reset}. */
    String resetLink(String token) {
        String page = config.passwordResetUrl.map(String::strip).filter(u -> !u.isEmpty())
                .orElse(baseUrl.resolve("/password/reset"));
        return page + (page.contains("?") ? "&" : "?") + "token=" + token;
    }

    public PasswordChange change(Caller caller, String oldPassword, String newPassword, RequestOrigin origin) {
        User user = users.find(caller.userId())
                .orElseThrow(() -> BusinessException.unauthenticated(Authenticator.INVALID));
        if (!user.hashedPassword().map(h -> hasher.matches(oldPassword, h)).orElse(false)) {
            audit.record(AuditAction.PASSWORD_CHANGE, user.id(), origin, false);
            throw BusinessException.validation("old_password: is not the current password");
        }
        PasswordPolicy.check(newPassword);
        Instant now = clock.instant();
        user.changePasswordHash(hasher.hash(newPassword), now);
        user.revokeCredentials(now);
        callers.changed(user.id());
        audit.record(AuditAction.PASSWORD_CHANGE, user.id(), origin, true);
        if (caller.bySession()) {
            sessions.destroy(caller.sessionId());
            return new PasswordChange(null, sessions.create(user.id(), origin));
        }
        return new PasswordChange(new TokenPair(tokens.issue(TokenType.ACCESS, user.id(), user.role()),
                tokens.issue(TokenType.REFRESH, user.id(), user.role())), null);
    }

    /** Always answers the same way; mails a reset link only to an existing, active account, at most 3 an hour. */
    public void forgot(String email, RequestOrigin origin) {
        User user;
        try {
            user = users.findByEmail(EmailAddress.of(email == null ? "" : email.toLowerCase(Locale.ROOT)))
                    .filter(User::isActive).orElse(null);
        } catch (BusinessException malformed) {
            user = null;
        }
        signals.resetRequested(user == null ? null : user.id(), origin.ipAddress());
        if (user == null) {
            return;
        }
        long hour = clock.instant().getEpochSecond() / 3600;
        if (store.increment("pwreset-mails:" + user.id() + ":" + hour, Duration.ofHours(2)) > RESET_MAILS_PER_HOUR) {
            audit.record(AuditAction.PASSWORD_RESET_REQUEST, user.id(), origin, false);
            return;
        }
        String token = Hashes.randomToken(32);
        store.set(key(token), JSON.createObjectBuilder().add("user_id", user.id())
                .add("issued_at", clock.instant().toString()).build().toString(), RESET_LIFETIME);
        mail.queue(user.email().value(), "Reset your Atrium password", """
                Hello %s,

                someone asked to reset the password of your Atrium account. To choose a new password, open this
                link within 30 minutes:

                %s

                If it was not you, ignore this message: your password stays as it is.
                """.formatted(user.username(), resetLink(token)));
        audit.record(AuditAction.PASSWORD_RESET_REQUEST, user.id(), origin, true);
    }

    public void reset(String token, String newPassword, RequestOrigin origin) {
        PasswordPolicy.check(newPassword);
        var stored = tokens.plausibleOpaque(token, "", "password reset token") ? store.getAndDelete(key(token))
                : Optional.<String>empty();
        if (stored.isEmpty()) {
            throw BusinessException.badRequest("Reset link is invalid, used or expired");
        }
        var value = JSON.createReader(new StringReader(stored.get())).readObject();
        Instant issued = Instant.parse(value.getString("issued_at"));
        Instant now = clock.instant();
        if (!now.isBefore(issued.plus(RESET_LIFETIME))) {
            throw BusinessException.badRequest("Reset link is invalid, used or expired");
        }
        User user = users.find(value.getJsonNumber("user_id").longValue())
                .orElseThrow(() -> BusinessException.badRequest("Reset link is invalid, used or expired"));
        user.changePasswordHash(hasher.hash(newPassword), now);
        user.revokeCredentials(now);
        callers.changed(user.id());
        guard.clearFailures(user.email().value());
        audit.record(AuditAction.PASSWORD_RESET, user.id(), origin, true);
    }

    private static String key(String token) {
        return "pwreset:" + Hashes.sha256(token);
    }
}
