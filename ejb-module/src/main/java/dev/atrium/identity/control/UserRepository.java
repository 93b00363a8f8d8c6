package dev.atrium.identity.control;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.identity.entity.EmailAddress;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.persistence.Constraints;

/** Users by id and by e-mail. */
@ApplicationScoped
public class UserRepository {

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

    /** Persists and flushes, so a duplicate e-mail shows here as {@code false} rather than at commit. */
    public boolean add(User user) {
        return Constraints.persistUnique(em, user);
    }

    public EntityManager entityManager() {
        return em;
    }
}
