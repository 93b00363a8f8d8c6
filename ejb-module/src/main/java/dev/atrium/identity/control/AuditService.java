package dev.atrium.identity.control;

import java.time.Clock;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.identity.entity.AuditLog;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/**
 * Writes and lists audit entries. Each entry is written in its own transaction, so a failed login is recorded even
 * though the login itself rolls back.
 */
@Stateless
public class AuditService {

    static final Catalog<AuditLog> CATALOG = Catalog.of(AuditLog.class)
            .id("id", Long.class)
            .filterable("user_id", "userId", Long.class)
            .filterable("actor_id", "actorId", Long.class)
            .filterable("action", "action", String.class)
            .filterable("success", "success", Boolean.class)
            .filterable("ip_address", "ipAddress", String.class);

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Clock clock;

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void record(AuditAction action, Long userId, RequestOrigin origin, boolean success) {
        record(action, userId, null, origin, success);
    }

    /** An event about {@code userId} caused by another user, {@code actorId}. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void record(AuditAction action, Long userId, Long actorId, RequestOrigin origin, boolean success) {
        em.persist(new AuditLog(userId, actorId, action.stored(), origin.ipAddress(), origin.userAgent(), success,
                clock.instant()));
    }

    public Listing<AuditLog> list(ListQuery query) {
        return new EntityQuery<>(em, CATALOG).list(query);
    }
}
