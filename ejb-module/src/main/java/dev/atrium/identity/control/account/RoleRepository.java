package dev.atrium.identity.control.account;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.identity.entity.Role;

/** Roles by name. */
@ApplicationScoped
public class RoleRepository {

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    public Optional<Role> find(String name) {
        return em.createQuery("select r from Role r where r.name = :name", Role.class)
                .setParameter("name", name).getResultStream().findFirst();
    }

    /** A role every deployment has (seeded by the migrations). */
    public Role require(String name) {
        return find(name).orElseThrow(() -> new IllegalStateException("Seeded role missing: " + name));
    }

    public List<Role> all() {
        return em.createQuery("select distinct r from Role r left join fetch r.permissions order by r.id", Role.class)
                .getResultList();
    }
}
