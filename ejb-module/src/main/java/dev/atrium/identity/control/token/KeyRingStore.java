package dev.atrium.identity.control.token;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.identity.entity.SigningKey;

/**
 * The key ring's table. Creating and rotating keys first locks the one row of {@code key_ring_lock}, so instances
 * starting or rotating at the same moment take turns and each algorithm keeps exactly one current key.
 */
@Stateless
public class KeyRingStore {

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public List<SigningKey> all() {
        return em.createQuery("select k from SigningKey k order by k.createdAt", SigningKey.class).getResultList();
    }

    /** Adds a current key for the algorithm unless one exists. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void ensureCurrent(String algorithm, Supplier<SigningKey> create) {
        lock();
        if (current(algorithm).isEmpty()) {
            em.persist(create.get());
        }
    }

    /**
     * Makes a new key current when the current one is older than {@code olderThan} (always when null): the old one
     * becomes previous until {@code keepPrevious} has passed. Previous keys past their time are dropped.
     * Answers the new key, or empty when no rotation was due.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Optional<SigningKey> rotate(String algorithm, Supplier<SigningKey> create, Duration keepPrevious,
                                       Instant olderThan, Instant now) {
        lock();
        var current = current(algorithm);
        if (olderThan != null && current.isPresent() && current.get().createdAt().isAfter(olderThan)) {
            return Optional.empty();
        }
        current.ifPresent(k -> k.retire(now, now.plus(keepPrevious)));
        em.flush();
        SigningKey fresh = create.get();
        em.persist(fresh);
        dropExpired(now);
        return Optional.of(fresh);
    }

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int dropExpired(Instant now) {
        int dropped = 0;
        for (SigningKey key : em.createQuery("select k from SigningKey k where k.status = :previous", SigningKey.class)
                .setParameter("previous", SigningKey.Status.PREVIOUS).getResultList()) {
            if (key.droppable(now)) {
                em.remove(key);
                dropped++;
            }
        }
        return dropped;
    }

    /** Removes keys sealed under another master secret: they can never verify anything again. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void delete(Collection<String> kids) {
        lock();
        kids.forEach(kid -> Optional.ofNullable(em.find(SigningKey.class, kid)).ifPresent(em::remove));
    }

    private Optional<SigningKey> current(String algorithm) {
        return em.createQuery("select k from SigningKey k where k.algorithm = :alg and k.status = :current",
                        SigningKey.class)
                .setParameter("alg", algorithm)
                .setParameter("current", SigningKey.Status.CURRENT)
                .getResultStream().findFirst();
    }

    private void lock() {
        em.createNativeQuery("SELECT id FROM key_ring_lock WHERE id = 1 FOR UPDATE").getResultList();
    }
}
