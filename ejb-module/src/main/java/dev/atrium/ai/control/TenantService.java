package dev.atrium.ai.control;

import java.time.Clock;
import java.util.Optional;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.ai.entity.Tenant;
import dev.atrium.ai.entity.Tier;
import dev.atrium.platform.kv.KeyValueStoreException;

/**
 * Each user's tier (free, pro, enterprise): read by quotas here and by the marketplace's publishing limits, kept
 * between requests under the version the shared store holds ({@link KnownTiers}).
 */
@Stateless
public class TenantService {

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Clock clock;

    @Inject
    KnownTiers known;

    /** Whether the user is on the free tier: what the marketplace asks (it never holds the {@link Tier} itself). */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public boolean onFreeTier(long userId) {
        return tierOf(userId) == Tier.FREE;
    }

    /**
     * {@link #onFreeTier(long)} with the version of the user's tier already read from the shared store (the key
     * {@link #tierVersionKey}, read together with other state in one round trip); empty when the store did not answer.
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public boolean onFreeTier(long userId, Optional<String> tierVersion) {
        return tierOf(userId, tierVersion.orElse(KnownTiers.NO_VERSION)) == Tier.FREE;
    }

    /** The shared store's key of the version of the user's tier. */
    public static String tierVersionKey(long userId) {
        return KnownTiers.versionKey(userId);
    }

    /**
     * The user's tier: kept, or read and kept. Without a transaction of its own: a kept tier asks only the store (one
     * round trip); a store that cannot answer leaves the tier read from the database every time.
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Tier tierOf(long userId) {
        String version;
        try {
            version = known.version(userId);
        } catch (KeyValueStoreException e) {
            return read(userId);
        }
        return tierOf(userId, version);
    }

    private Tier tierOf(long userId, String version) {
        var kept = known.kept(userId, version);
        if (kept.isPresent()) {
            return kept.get();
        }
        Tier tier = read(userId);
        known.keep(userId, version, tier);
        return tier;
    }

    public Tier changeTier(long userId, Tier tier) {
        Tenant tenant = em.find(Tenant.class, userId);
        if (tenant == null) {
            em.persist(new Tenant(userId, tier, clock.instant()));
        } else {
            tenant.changeTier(tier, clock.instant());
        }
        known.changed(userId);
        return tier;
    }

    private Tier read(long userId) {
        Tenant tenant = em.find(Tenant.class, userId);
        return tenant == null ? Tier.FREE : tenant.tier();
    }
}
