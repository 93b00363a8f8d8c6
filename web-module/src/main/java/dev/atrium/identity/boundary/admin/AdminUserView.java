package dev.atrium.identity.boundary.admin;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.atrium.identity.entity.User;

/**
 * A user as administrators see it. {@code is_active} is derived: verified and not deactivated; the deactivation
 * fields are null unless an administrator deactivated the user.
 */
public record AdminUserView(long id, String email, String username, String role, List<String> roles,
                            boolean isActive, Instant emailVerifiedAt, Instant deactivatedAt, Long deactivatedBy,
                            String deactivationReason, Instant createdAt, Map<String, String> _links) {

    static AdminUserView from(User u) {
        return new AdminUserView(u.id(), u.email().value(), u.username(), u.role(), u.roleNames(), u.isActive(),
                u.emailVerifiedAt().orElse(null), u.deactivatedAt().orElse(null), u.deactivatedBy().orElse(null),
                u.deactivationReason().orElse(null), u.createdAt(),
                Map.of("self", "/admin/users/" + u.id(), "roles", "/admin/users/" + u.id() + "/roles"));
    }
}
