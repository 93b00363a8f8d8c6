package dev.atrium.identity.boundary.account;

import java.time.Instant;

import dev.atrium.identity.entity.User;

/** Spec 02's UserResponse (id, username, email) with the profile fields a PATCH can change. */
public record UserResponse(long id, String username, String email, String avatar, String bio, Instant createdAt) {

    public static UserResponse from(User user) {
        return new UserResponse(user.id(), user.username(), user.email().value(), user.avatar(), user.bio(),
                user.createdAt());
    }
}
