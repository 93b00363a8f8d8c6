package dev.atrium.identity.control.account;

import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import dev.atrium.identity.control.Hashes;
import dev.atrium.identity.control.RequestOrigin;
import dev.atrium.identity.control.audit.AuditAction;
import dev.atrium.identity.control.audit.AuditService;
import dev.atrium.identity.control.login.KnownCallers;
import dev.atrium.identity.control.password.PasswordHasher;
import dev.atrium.identity.control.password.PasswordPolicy;
import dev.atrium.identity.control.token.InvalidTokenException;
import dev.atrium.identity.control.token.TokenService;
import dev.atrium.identity.control.token.TokenType;
import dev.atrium.identity.control.token.VerifiedToken;
import dev.atrium.identity.entity.EmailAddress;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.BaseUrl;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.mail.MailService;

/**
 * Registration and e-mail verification: the user is stored unverified, a verification link carrying a signed
 * 24-hour token goes out through the mail queue, and following it verifies the address. Only the last link mailed
 * works (its hash is kept on the user), so asking for a new one invalidates the earlier. Verifying never lifts an
 * administrator's deactivation.
 */
@Stateless
public class RegistrationService {

    static final int RESEND_MAILS_PER_ACCOUNT_HOUR = 3;
    static final int RESEND_REQUESTS_PER_ADDRESS_HOUR = 10;

    @Inject
    UserRepository users;

    @Inject
    PasswordHasher hasher;

    @Inject
    TokenService tokens;

    @EJB
    MailService mail;

    @Inject
    RoleRepository roles;

    @EJB
    AuditService audit;

    @Inject
    KnownCallers callers;

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    @Inject
    BaseUrl baseUrl;

    public User register(String email, String username, String password, RequestOrigin origin) {
        EmailAddress address = EmailAddress.of(email);
        PasswordPolicy.check(password);
        if (users.findByEmail(address).isPresent()) {
            throw emailTaken();
        }
        User user = User.register(address, username, hasher.hash(password), roles.require(User.DEFAULT_ROLE),
                clock.instant());
        if (!users.add(user)) {
            throw emailTaken();
        }
        audit.record(AuditAction.REGISTER, user.id(), origin, true);
        sendVerification(user);
        return user;
    }

    /**
     * A new verification link for an unverified account, the earlier one stopping to work. Answers nothing, whether
     * or not the address belongs to an account, is verified already or is over its limit (3 mails an hour), so
     * that nothing is revealed; a client address asking more than 10 times an hour gets 429.
     */
    public void resend(String email, RequestOrigin origin) {
        long hour = clock.instant().getEpochSecond() / 3600;
        long fromAddress = store.increment("verify-resend-ip:" + origin.ipAddress() + ":" + hour,
                Duration.ofHours(2));
        if (fromAddress > RESEND_REQUESTS_PER_ADDRESS_HOUR) {
            long retry = Math.max(1, (hour + 1) * 3600 - clock.instant().getEpochSecond());
            throw new BusinessException(Problem.RATE_LIMITED, "Too many requests for verification mails",
                    "At most " + RESEND_REQUESTS_PER_ADDRESS_HOUR + " an hour from one address; retry in " + retry
                            + " s", Map.of("Retry-After", Long.toString(retry)));
        }
        User user;
        try {
            user = users.findByEmail(EmailAddress.of(email == null ? "" : email.toLowerCase(Locale.ROOT)))
                    .orElse(null);
        } catch (BusinessException malformed) {
            return;
        }
        if (user == null || user.isEmailVerified()) {
            return;
        }
        if (store.increment("verify-resend:" + user.id() + ":" + hour, Duration.ofHours(2))
                > RESEND_MAILS_PER_ACCOUNT_HOUR) {
            audit.record(AuditAction.VERIFY_EMAIL_RESEND, user.id(), origin, false);
            return;
        }
        sendVerification(user);
        audit.record(AuditAction.VERIFY_EMAIL_RESEND, user.id(), origin, true);
    }

    private void sendVerification(User user) {
        String token = tokens.issue(TokenType.EMAIL_VERIFY, user.id(), user.role());
        user.verificationIssued(Hashes.sha256(token), clock.instant());
        String link = baseUrl.resolve("/verify-email?token=" + token);
        mail.queue(user.email().value(), "Verify your Atrium account", """
                Hello %s,

                please confirm your e-mail address by opening this link within 24 hours:

                %s

                If you did not register, ignore this message.
                """.formatted(user.username(), link));
    }

    public User verify(String token, RequestOrigin origin) {
        VerifiedToken verified;
        try {
            verified = tokens.verify(token, TokenType.EMAIL_VERIFY);
        } catch (InvalidTokenException e) {
            audit.record(AuditAction.VERIFY_EMAIL, null, origin, false);
            throw BusinessException.badRequest("Verification link is invalid or expired");
        }
        User user = users.find(verified.userId()).filter(u -> u.isCurrentVerification(Hashes.sha256(token)))
                .orElse(null);
        if (user == null) {
            audit.record(AuditAction.VERIFY_EMAIL, verified.userId(), origin, false);
            throw BusinessException.badRequest("Verification link is invalid, replaced by a newer one, or expired");
        }
        user.verifyEmail(clock.instant());
        callers.changed(user.id());
        audit.record(AuditAction.VERIFY_EMAIL, user.id(), origin, true);
        return user;
    }

    private static BusinessException emailTaken() {
        return new BusinessException(Problem.EMAIL_REGISTERED, "E-mail already registered");
    }
}
