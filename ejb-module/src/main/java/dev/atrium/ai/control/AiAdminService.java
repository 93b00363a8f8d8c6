package dev.atrium.ai.control;

import java.time.Instant;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import dev.atrium.ai.entity.Tier;
import dev.atrium.identity.control.UserService;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/** The AI backend's view of users for administrators: their tier, role and today's usage. */
@Stateless
public class AiAdminService {

    /** A user with what the AI backend knows of it. */
    public record AiUser(long id, String email, String username, String role, Tier tier, Instant createdAt,
                         QuotaService.DailyUsage usageToday) {
    }

    @EJB
    UserService users;

    @EJB
    TenantService tenants;

    @Inject
    QuotaService quotas;

    public Listing<AiUser> users(ListQuery query) {
        return users.directory(query).map(u -> {
            Tier tier = tenants.tierOf(u.id());
            return new AiUser(u.id(), u.email(), u.username(), u.role(), tier, u.createdAt(),
                    quotas.today(u.id(), tier));
        });
    }

    public AiUser changeTier(long userId, Tier tier) {
        var user = users.profile(userId);
        tenants.changeTier(userId, tier);
        return new AiUser(user.id(), user.email(), user.username(), user.role(), tier, user.createdAt(),
                quotas.today(userId, tier));
    }
}
