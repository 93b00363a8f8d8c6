package dev.atrium.identity.control;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import dev.atrium.identity.control.account.UserRepository;
import dev.atrium.identity.control.login.KnownCallers;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/** Reading users and changing one's own profile; the identity context's public face for other contexts. */
@Stateless
public class UserService {

    @Inject
    UserRepository users;

    @Inject
    KnownCallers callers;

    @Inject
    Clock clock;

    public User get(long id) {
        return users.find(id).orElseThrow(() -> new BusinessException(Problem.USER_NOT_FOUND, "User not found"));
    }

    public User updateProfile(long id, ProfileUpdate update) {
        User user = get(id);
        var now = clock.instant();
        update.username().ifPresent(v -> {
            user.rename(v, now);
            callers.changed(id);
        });
        update.avatar().ifPresent(v -> user.changeAvatar(v, now));
        update.bio().ifPresent(v -> user.changeBio(v, now));
        return user;
    }

    /** A user as other contexts' administration pages show it. */
    public record UserProfile(long id, String email, String username, String role, Instant createdAt) {

        static UserProfile from(User u) {
            return new UserProfile(u.id(), u.email().value(), u.username(), u.role(), u.createdAt());
        }
    }

    /** One user as other contexts see it (they never hold the entity). */
    public UserProfile profile(long id) {
        return UserProfile.from(get(id));
    }

    /** A page of users (list conventions of the administrators' user list) as profiles. */
    public Listing<UserProfile> directory(ListQuery query) {
        return users.list(query).map(UserProfile::from);
    }

    /**
     * Which of the given users are verified (e-mail address verified, account active): what other contexts need to
     * count a user's actions as a real person's. Unknown ids are left out.
     */
    public Set<Long> verified(Collection<Long> ids) {
        return ids.isEmpty() ? Set.of() : users.verifiedAndActive(ids);
    }

    /** Public names of the given users, for showing authors; unknown ids are left out. */
    public Map<Long, UserSummary> summaries(Collection<Long> ids) {
        return users.findAll(ids).stream()
                .map(u -> new UserSummary(u.id(), u.username()))
                .collect(Collectors.toMap(UserSummary::id, Function.identity()));
    }
}
