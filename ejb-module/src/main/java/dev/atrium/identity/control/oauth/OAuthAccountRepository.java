package dev.atrium.identity.control.oauth;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.identity.entity.OAuthAccount;
import dev.atrium.platform.persistence.Constraints;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/** External account bindings by id, by (provider, provider user id) and by user. */
@ApplicationScoped
public class OAuthAccountRepository {

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    public Optional<OAuthAccount> find(long id) {
        return Optional.ofNullable(em.find(OAuthAccount.class, id));
    }

    public Optional<OAuthAccount> find(String provider, String providerUserId) {
        return em.createQuery("select a from OAuthAccount a where a.provider = :provider"
                        + " and a.providerUserId = :subject", OAuthAccount.class)
                .setParameter("provider", provider).setParameter("subject", providerUserId)
                .getResultStream().findFirst();
    }

    public long countByUser(long userId) {
        return em.createQuery("select count(a) from OAuthAccount a where a.userId = :user", Long.class)
                .setParameter("user", userId).getSingleResult();
    }

    /** Persists and flushes; {@code false} when the external account is already bound (to anyone). */
    public boolean add(OAuthAccount account) {
        return Constraints.persistUnique(em, account);
    }

    public void remove(OAuthAccount account) {
        em.remove(account);
    }

    /** A page of one user's bindings under {@code catalog}'s list conventions. */
    public Listing<OAuthAccount> list(long userId, Catalog<OAuthAccount> catalog, ListQuery query) {
        return new EntityQuery<>(em, catalog).list(query, (cb, q, root) -> cb.equal(root.get("userId"), userId));
    }
}
