package dev.atrium.ai.control;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.ai.entity.Tier;
import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.kv.KeyValueStoreException;
import dev.atrium.platform.persistence.AfterCommit;

/**
 * Users' tiers kept by this instance between requests, as {@code KnownCallers} keeps callers: a tier is used again
 * only under the version of it the shared store holds, and for at most {@code atrium.ai.tier-cache-seconds}. A tier
 * change ({@link #changed}, from {@link TenantService#changeTier}) gives the user's tier a new random version once its
 * transaction commits, so every instance reads the tier again at its next request. The version is read before the
 * tier and changed after the commit, so a tier read while a change commits is kept under a version already old. The
 * seconds bound what no service saw: a row changed by hand, a version lost with the store.
 */
@ApplicationScoped
public class KnownTiers {

    /** At most this many users; a full table starts afresh. */
    static final int MAX_ENTRIES = 10_000;
    static final String NO_VERSION = "";
    private static final Logger LOG = Logger.getLogger(KnownTiers.class.getName());

    /** A tier as read under {@code version} at {@code keptAt}. */
    private record Kept(Tier tier, String version, Instant keptAt) {
    }

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;

    @Inject
    @ConfigProperties
    AiConfig config;

    private final Map<Long, Kept> kept = new ConcurrentHashMap<>();

    /** The version of the user's tier the store holds now (one round trip); throws when the store cannot answer. */
    public String version(long userId) {
        return store.get(versionKey(userId)).orElse(NO_VERSION);
    }

    /** The tier kept for the user under {@code version}, while fresh. */
    public Optional<Tier> kept(long userId, String version) {
        Kept entry = kept.get(userId);
        Instant now = clock.instant();
        if (entry == null || !entry.version().equals(version) || entry.keptAt().isAfter(now)
                || Duration.between(entry.keptAt(), now).getSeconds() >= config.tierCacheSeconds) {
            return Optional.empty();
        }
        return Optional.of(entry.tier());
    }

    /** Keeps a tier read after {@code version} was. */
    public void keep(long userId, String version, Tier tier) {
        if (config.tierCacheSeconds <= 0) {
            return;
        }
        if (kept.size() >= MAX_ENTRIES && !kept.containsKey(userId)) {
            kept.clear();
        }
        kept.put(userId, new Kept(tier, version, clock.instant()));
    }

    /**
     * The user's tier changed in the current transaction: once it commits (at once outside one) every instance reads
     * it again. A store that cannot be told leaves other instances on what they kept for the seconds at most.
     */
    public void changed(long userId) {
        AfterCommit.run(transactions, () -> {
            kept.remove(userId);
            try {
                store.set(versionKey(userId), UUID.randomUUID().toString(), versionLifetime());
            } catch (KeyValueStoreException e) {
                LOG.warning(() -> "A tier change could not be announced to other instances; they may use the tier "
                        + "they kept for up to " + config.tierCacheSeconds + " s: " + e.getMessage());
            }
        });
    }

    /** Long enough that a version cannot expire back to "none" while a tier kept under "none" is still used. */
    private Duration versionLifetime() {
        return Duration.ofSeconds(2 * Math.max(config.tierCacheSeconds, 0) + 60);
    }

    static String versionKey(long userId) {
        return "ai:tier-version:" + userId;
    }
}
