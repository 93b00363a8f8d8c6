package dev.atrium.identity.control.account;

import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import dev.atrium.identity.entity.EmailAddress;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.persistence.Constraints;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/** Users by id and by e-mail, and the administrators' list of them. */
@ApplicationScoped
public class UserRepository {

    /** The list conventions of the administrators' user list (and of the directory other contexts page through). */
    static final Catalog<User> LIST = Catalog.of(User.class)
            .id("id", Long.class)
            .filterable("email", "email.value", String.class)
            .filterable("role", "role", String.class)
            .filterable("is_active", "active", Boolean.class)
            .sortable("username", "username", String.class, true)
            .sortable("email", "email.value", String.class, true)
            .search("username", "email.value");

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    public Optional<User> find(long id) {
        return Optional.ofNullable(em.find(User.class, id));
    }

    /** The user with its roles read in the same statement: what authenticating a request needs. */
    public Optional<User> findWithRoles(long id) {
        return em.createQuery("select u from User u left join fetch u.roles where u.id = :id", User.class)
                .setParameter("id", id)
                .getResultList().stream().findFirst();
    }

    public Optional<User> findByEmail(EmailAddress email) {
        return em.createQuery("select u from User u where u.email.value = :email", User.class)
                .setParameter("email", email.value())
                .getResultStream().findFirst();
    }

    public List<User> findAll(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return em.createQuery("select u from User u where u.id in :ids", User.class)
                .setParameter("ids", ids).getResultList();
    }

    /**
     * Which of the given users have a verified e-mail address and an active account, ids only (no entities loaded),
     * in chunks so that a long list stays within the database's parameter limit.
     */
    public Set<Long> verifiedAndActive(Collection<Long> ids) {
        var found = new HashSet<Long>();
        var all = List.copyOf(new LinkedHashSet<>(ids));
        for (int from = 0; from < all.size(); from += VERIFIED_CHUNK) {
            found.addAll(em.createQuery("select u.id from User u where u.id in :ids and u.active = true "
                            + "and u.emailVerifiedAt is not null", Long.class)
                    .setParameter("ids", all.subList(from, Math.min(all.size(), from + VERIFIED_CHUNK)))
                    .getResultList());
        }
        return found;
    }

    private static final int VERIFIED_CHUNK = 1000;

    /** Persists and flushes, so a duplicate e-mail shows here as {@code false} rather than at commit. */
    public boolean add(User user) {
        return Constraints.persistUnique(em, user);
    }

    /** The user, its row locked until the transaction ends. */
    public Optional<User> findLocked(long id) {
        return Optional.ofNullable(em.find(User.class, id, LockModeType.PESSIMISTIC_WRITE));
    }

    public Listing<User> list(ListQuery query) {
        return new EntityQuery<>(em, LIST).list(query);
    }

    public void remove(User user) {
        em.remove(user);
    }
}
