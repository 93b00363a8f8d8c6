package dev.atrium.identity.control.account;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import dev.atrium.identity.control.Caller;
import dev.atrium.identity.control.RequestOrigin;
import dev.atrium.identity.control.UserDeleted;
import dev.atrium.identity.control.audit.AuditAction;
import dev.atrium.identity.control.audit.AuditService;
import dev.atrium.identity.control.login.KnownCallers;
import dev.atrium.identity.control.token.KeyRing;
import dev.atrium.identity.entity.Role;
import dev.atrium.identity.entity.SigningKey;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.events.ApplicationEvents;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/** Administering users and their roles. Every change is audited with the acting administrator's origin. */
@Stateless
public class AccessAdminService {

    @Inject
    UserRepository users;

    @Inject
    RoleRepository roles;

    @EJB
    AuditService audit;

    @Inject
    KnownCallers callers;

    @Inject
    KeyRing keyRing;

    @Inject
    Clock clock;

    @Inject
    ApplicationEvents events;

    public Listing<User> users(ListQuery query) {
        return users.list(query);
    }

    public User user(long id) {
        return users.find(id).orElseThrow(() -> new BusinessException(Problem.USER_NOT_FOUND, "User not found"));
    }

    /**
     * Deletes a user; its sessions and tokens stop working because they no longer name an existing user, and
     * {@link UserDeleted} tells the other contexts to drop what they keep for it.
     */
    public void delete(long id, Caller actor, RequestOrigin origin) {
        if (id == actor.userId()) {
            throw BusinessException.conflict("Administrators cannot delete their own account");
        }
        User user = user(id);
        users.remove(user);
        callers.changed(id);
        audit.record(AuditAction.USER_DELETE, id, actor.userId(), origin, true);
        events.publish(new UserDeleted(id));
    }

    /**
     * Deactivates (ending all its sessions and tokens; who, when and the optional reason are kept) or reactivates a
     * user; never oneself.
     */
    public User setActive(long id, boolean active, String reason, Caller actor, RequestOrigin origin) {
        if (id == actor.userId()) {
            throw BusinessException.conflict("Administrators cannot deactivate their own account");
        }
        User user = user(id);
        if (active) {
            user.reactivate(clock.instant());
        } else {
            user.deactivate(actor.userId(), reason, clock.instant());
        }
        callers.changed(id);
        audit.record(active ? AuditAction.USER_ACTIVATE : AuditAction.USER_DEACTIVATE, id, actor.userId(), origin,
                true);
        return user;
    }

    /**
     * Ends every session, access and refresh token the user holds (API keys are the user's own to manage), as a
     * password change does, without touching the account's state. Not for oneself: that is {@code POST /logout}.
     */
    public User endSessions(long id, Caller actor, RequestOrigin origin) {
        if (id == actor.userId()) {
            throw BusinessException.conflict("Administrators end their own sessions with POST /logout");
        }
        User user = user(id);
        user.revokeCredentials(clock.instant());
        callers.changed(id);
        audit.record(AuditAction.SESSIONS_END, id, actor.userId(), origin, true);
        return user;
    }

    public List<Role> roles() {
        return roles.all();
    }

    /** Grants a role; {@code false} when the user already had it. */
    public boolean grant(long userId, String roleName, Caller actor, RequestOrigin origin) {
        Role role = roles.find(roleName)
                .orElseThrow(() -> BusinessException.validation("role: no role named '" + roleName + "'"));
        boolean granted = user(userId).grant(role, clock.instant());
        if (granted) {
            callers.changed(userId);
            audit.record(AuditAction.ROLE_GRANT, userId, actor.userId(), origin, true);
        }
        return granted;
    }

    /** Rotates the signing keys of the given algorithms (HS256, RS256); answers algorithm → new key id. */
    public Map<String, String> rotateKeys(List<String> algorithms, Caller actor, RequestOrigin origin) {
        var rotated = new LinkedHashMap<String, String>();
        for (String algorithm : algorithms) {
            if (!KeyRing.HS256.equals(algorithm) && !KeyRing.RS256.equals(algorithm)) {
                throw BusinessException.validation("algorithm: HS256 or RS256");
            }
            rotated.put(algorithm, keyRing.rotate(algorithm));
        }
        audit.record(AuditAction.KEY_ROTATE, null, actor.userId(), origin, true);
        return rotated;
    }

    public List<SigningKey> keys() {
        return keyRing.keys();
    }

    public void revoke(long userId, String roleName, Caller actor, RequestOrigin origin) {
        if (!user(userId).revoke(roleName, clock.instant())) {
            throw BusinessException.notFound("Role " + roleName + " of this user");
        }
        callers.changed(userId);
        audit.record(AuditAction.ROLE_REVOKE, userId, actor.userId(), origin, true);
    }
}
