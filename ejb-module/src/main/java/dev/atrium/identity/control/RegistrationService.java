package dev.atrium.identity.control;

import java.time.Clock;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.identity.entity.EmailAddress;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.mail.MailService;

/**
 * Registration and e-mail verification: the user is stored inactive, a verification link carrying a signed
 * 24-hour token goes out through the mail queue, and following it activates the account.
 */
@Stateless
public class RegistrationService {

    @Inject
    UserRepository users;

    @Inject
    PasswordHasher hasher;

    @Inject
    TokenService tokens;

    @Inject
    MailService mail;

    @Inject
    RoleRepository roles;

    @Inject
    AuditService audit;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperty(name = "atrium.base-url", defaultValue = "http://localhost:8080")
    String baseUrl;

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
        String token = tokens.issue(TokenType.EMAIL_VERIFY, user.id(), user.role());
        String link = baseUrl.replaceAll("/+$", "") + "/verify-email?token=" + token;
        mail.queue(address.value(), "Verify your Atrium account", """
                Hello %s,

                please confirm your e-mail address by opening this link within 24 hours:

                %s

                If you did not register, ignore this message.
                """.formatted(user.username(), link));
        return user;
    }

    public User verify(String token, RequestOrigin origin) {
        VerifiedToken verified;
        try {
            verified = tokens.verify(token, TokenType.EMAIL_VERIFY);
        } catch (InvalidTokenException e) {
            audit.record(AuditAction.VERIFY_EMAIL, null, origin, false);
            throw BusinessException.badRequest("Verification link is invalid or expired");
        }
        User user = users.find(verified.userId())
                .orElseThrow(() -> BusinessException.badRequest("Verification link is invalid or expired"));
        user.activate(clock.instant());
        audit.record(AuditAction.VERIFY_EMAIL, user.id(), origin, true);
        return user;
    }

    private static BusinessException emailTaken() {
        return new BusinessException(Problem.EMAIL_REGISTERED, "E-mail already registered");
    }
}
