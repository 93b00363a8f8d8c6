package dev.atrium.identity.boundary;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.atrium.identity.entity.User;

/** A user as administrators see it. */
public record AdminUserView(long id, String email, String username, String role, List<String> roles,
                            boolean isActive, Instant createdAt, Map<String, String> _links) {

    static AdminUserView from(User u) {
        return new AdminUserView(u.id(), u.email().value(), u.username(), u.role(), u.roleNames(), u.isActive(),
                u.createdAt(), Map.of("self", "/admin/users/" + u.id(), "roles", "/admin/users/" + u.id() + "/roles"));
    }
}
