package dev.atrium.identity.control.login;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.StringReader;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import dev.atrium.identity.control.Caller;
import dev.atrium.identity.control.Hashes;
import dev.atrium.identity.control.RequestOrigin;
import dev.atrium.identity.control.account.UserRepository;
import dev.atrium.identity.control.audit.AuditAction;
import dev.atrium.identity.control.audit.AuditService;
import dev.atrium.identity.control.token.TokenService;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.kv.KeyValueStore;

/**
 * Single sign-on. Token flow: a password login answers an RS256 token (the access-token claims) that subsystems
 * verify on their own with the published JWKS. Ticket flow (CAS style): a logged-in user going to an allowed
 * service gets a one-time ticket {@code ST-…} bound to that service; the service's backend exchanges it once,
 * within 5 minutes, for the user's id, username, e-mail and roles.
 */
@Stateless
public class SsoService {

    public static final Duration TICKET_LIFETIME = Duration.ofMinutes(5);

    /** An SSO login's answer: the token and where to send the browser with it. */
    public record SsoLogin(String token, String redirect) {
    }

    /** What a validated ticket tells the service about its user. */
    public record TicketUser(long id, String username, String email, List<String> roles) {
    }

    @EJB
    LoginService logins;

    @Inject
    TokenService tokens;

    @Inject
    RedirectPolicy redirects;

    @Inject
    UserRepository users;

    @Inject
    KeyValueStore store;

    @EJB
    AuditService audit;

    @Inject
    Clock clock;

    public SsoLogin login(String email, String password, String redirectUrl, RequestOrigin origin) {
        requireAllowed("redirect_url", redirectUrl);
        User user = logins.authenticateUser(email, password, origin);
        String token = tokens.issueSso(user.id(), user.role(), user.roleNames());
        audit.record(AuditAction.SSO_LOGIN, user.id(), origin, true);
        return new SsoLogin(token, withParameter(redirectUrl.trim(), "token", token));
    }

    /** A ticket for the caller to carry to {@code service}; answers the URL to send the browser to. */
    public String ticket(Caller caller, String service) {
        requireAllowed("service", service);
        return issueTicket(caller.userId(), service);
    }

    /**
     * The browser's ticket flow without a session: the login form's credentials, with every login limit, then a
     * ticket for {@code service}; answers the URL to send the browser to.
     */
    public String ticketAfterLogin(String email, String password, String service, RequestOrigin origin) {
        requireAllowed("service", service);
        User user = logins.authenticateUser(email, password, origin);
        audit.record(AuditAction.SSO_LOGIN, user.id(), origin, true);
        return issueTicket(user.id(), service);
    }

    /** Refuses (422) a service outside the allowed prefixes, before a login form is shown for it. */
    public void checkService(String service) {
        requireAllowed("service", service);
    }

    private String issueTicket(long userId, String service) {
        String ticket = "ST-" + Hashes.randomToken(32);
        store.set(key(ticket), JSON.createObjectBuilder().add("user_id", userId)
                .add("service", service.trim()).add("issued_at", clock.instant().toString()).build().toString(),
                TICKET_LIFETIME);
        return withParameter(service.trim(), "ticket", ticket);
    }

    /** Consumes a ticket: once, within its lifetime, and only for the service it was issued to. */
    public TicketUser validate(String ticket, String service, RequestOrigin origin) {
        var stored = tokens.plausibleOpaque(ticket, "ST-", "service ticket") ? store.getAndDelete(key(ticket))
                : Optional.<String>empty();
        var value = stored.map(v -> JSON.createReader(new StringReader(v)).readObject());
        boolean valid = value.isPresent()
                && value.get().getString("service").equals(service == null ? "" : service.trim())
                && clock.instant().isBefore(Instant.parse(value.get().getString("issued_at")).plus(TICKET_LIFETIME));
        User user = valid ? users.find(value.get().getJsonNumber("user_id").longValue()).filter(User::isActive)
                .orElse(null) : null;
        if (user == null) {
            audit.record(AuditAction.SSO_TICKET_VALIDATE, null, origin, false);
            throw BusinessException.badRequest("Ticket invalid, already used, expired or issued for another service");
        }
        audit.record(AuditAction.SSO_TICKET_VALIDATE, user.id(), origin, true);
        return new TicketUser(user.id(), user.username(), user.email().value(), user.roleNames());
    }

    private void requireAllowed(String name, String url) {
        if (!redirects.allows(url)) {
            throw BusinessException.validation(name + ": not an allowed address (see ATRIUM_SSO_ALLOWED_REDIRECTS)");
        }
    }

    static String withParameter(String url, String name, String value) {
        int hash = url.indexOf('#');
        String base = hash < 0 ? url : url.substring(0, hash);
        String fragment = hash < 0 ? "" : url.substring(hash);
        return base + (base.contains("?") ? "&" : "?") + name + "=" + value + fragment;
    }

    private static String key(String ticket) {
        return "ticket:" + Hashes.sha256(ticket);
    }
}
