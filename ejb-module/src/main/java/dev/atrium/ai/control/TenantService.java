package dev.atrium.ai.control;

import java.time.Clock;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.ai.entity.Tenant;
import dev.atrium.ai.entity.Tier;

/** Each user's tier (free, pro, enterprise): read by quotas here and by the marketplace's publishing limits. */
@Stateless
public class TenantService {

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Clock clock;

    public Tier tierOf(long userId) {
        Tenant tenant = em.find(Tenant.class, userId);
        return tenant == null ? Tier.FREE : tenant.tier();
    }

    public Tier changeTier(long userId, Tier tier) {
        Tenant tenant = em.find(Tenant.class, userId);
        if (tenant == null) {
            em.persist(new Tenant(userId, tier, clock.instant()));
        } else {
            tenant.changeTier(tier, clock.instant());
        }
        return tier;
    }
}
