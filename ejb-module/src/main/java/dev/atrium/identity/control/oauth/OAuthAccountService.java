package dev.atrium.identity.control.oauth;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import dev.atrium.identity.control.Caller;
import dev.atrium.identity.control.RequestOrigin;
import dev.atrium.identity.control.account.UserRepository;
import dev.atrium.identity.control.audit.AuditAction;
import dev.atrium.identity.control.audit.AuditService;
import dev.atrium.identity.control.login.Authenticator;
import dev.atrium.identity.entity.OAuthAccount;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/** A user's own external account bindings: listing them, and removing one while another way to log in remains. */
@Stateless
public class OAuthAccountService {

    static final Catalog<OAuthAccount> CATALOG = Catalog.of(OAuthAccount.class)
            .id("id", Long.class)
            .field("provider", "provider", String.class, true, true, true);

    @Inject
    OAuthAccountRepository accounts;

    @Inject
    UserRepository users;

    @EJB
    AuditService audit;

    public Listing<OAuthAccount> list(long userId, ListQuery query) {
        return accounts.list(userId, CATALOG, query);
    }

    /**
     * Removes one of the caller's bindings; someone else's is "not found". Refused (409) when it is the last way the
     * user can log in: no password and no other binding. The user row is locked first, so two removals at once
     * cannot each leave the other as the last binding and then both go.
     */
    public void unlink(Caller caller, long id, RequestOrigin origin) {
        User user = users.findLocked(caller.userId())
                .orElseThrow(() -> BusinessException.unauthenticated(Authenticator.INVALID));
        OAuthAccount account = accounts.find(id).filter(a -> a.userId() == user.id())
                .orElseThrow(() -> BusinessException.notFound("OAuth account"));
        if (user.hashedPassword().isEmpty() && accounts.countByUser(user.id()) <= 1) {
            audit.record(AuditAction.OAUTH_UNLINK, user.id(), origin, false);
            throw BusinessException.conflict("This is the only way to log in to the account: set a password (through "
                    + "the password reset e-mail) or link another provider before removing it");
        }
        accounts.remove(account);
        audit.record(AuditAction.OAUTH_UNLINK, user.id(), origin, true);
    }
}
