package dev.atrium.identity.control;

import java.time.Clock;
import java.util.Optional;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.identity.entity.ApiKey;

/**
 * API keys (spec 02): {@code sk-} followed by URL-safe text from 32 random bytes, one per user; a new key replaces
 * the old one. Only the SHA-256 is stored, so a leaked database does not leak keys.
 */
@Stateless
public class ApiKeyService {

    public static final String PREFIX = "sk-";

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Clock clock;

    /** A new key for the user, shown this once. */
    public String issue(long userId) {
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
