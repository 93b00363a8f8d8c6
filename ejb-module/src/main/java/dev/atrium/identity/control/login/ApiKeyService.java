package dev.atrium.identity.control.login;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.identity.control.Hashes;
import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.identity.entity.ApiKey;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.RateLimiter;

/**
 * API keys (spec 02): {@code sk-} followed by URL-safe text from 32 random bytes, one per user; a new key replaces
 * the old one, so a user never has more than one active key. Only the SHA-256 is stored, so a leaked database does
 * not leak keys. A user may issue at most {@code atrium.api-keys.per-hour} (20) keys per clock hour (429 beyond):
 * limits count per user, so a fresh key buys nothing, and minting keys in a loop is refused early.
 */
@Stateless
public class ApiKeyService {

    public static final String PREFIX = "sk-";
    static final Duration HOUR = Duration.ofHours(1);

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Clock clock;

    @Inject
    RateLimiter limiter;

    @Inject
    @ConfigProperties
    IdentityConfig config;

    /** A new key for the user, shown this once; 429 past the keys one user may issue in an hour. */
    public String issue(long userId) {
        int perHour = config.apiKeysPerHour;
        var rate = limiter.hit("api-keys|user:" + userId, perHour, HOUR);
        if (!rate.allowed()) {
            throw new BusinessException(Problem.RATE_LIMITED, "Too many API keys issued",
                    "At most " + perHour + " API keys per user per hour; the current key keeps working; retry in "
                            + rate.retryAfterSeconds() + " s",
                    Map.of("Retry-After", Long.toString(rate.retryAfterSeconds())));
        }
        String key = PREFIX + Hashes.randomToken(32);
        String hash = Hashes.sha256(key);
        String prefix = key.substring(0, 10);
        ApiKey existing = em.find(ApiKey.class, userId);
        if (existing == null) {
            em.persist(new ApiKey(userId, hash, prefix, clock.instant()));
        } else {
            existing.replace(hash, prefix, clock.instant());
        }
        return key;
    }

    /** The user a key belongs to. */
    public Optional<Long> owner(String key) {
        if (key == null || !key.startsWith(PREFIX)) {
            return Optional.empty();
        }
        return em.createQuery("select k from ApiKey k where k.keyHash = :hash", ApiKey.class)
                .setParameter("hash", Hashes.sha256(key)).getResultStream().findFirst().map(ApiKey::userId);
    }
}
