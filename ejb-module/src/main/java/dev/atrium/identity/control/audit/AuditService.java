package dev.atrium.identity.control.audit;

import java.time.Clock;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.identity.control.RequestOrigin;
import dev.atrium.identity.entity.AuditLog;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/**
 * Writes and lists audit entries. Each entry is written in a transaction of its own, so a failed login is recorded
 * even though the login itself rolls back; entries of requests at the same time share one ({@link AuditBatches}).
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

    @Inject
    AuditBatches batches;

    /** Returns once the entry is committed, outside the caller's transaction. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void record(AuditAction action, Long userId, RequestOrigin origin, boolean success) {
        record(action, userId, null, origin, success);
    }

    /** An event about {@code userId} caused by another user, {@code actorId}. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void record(AuditAction action, Long userId, Long actorId, RequestOrigin origin, boolean success) {
        var at = clock.instant();
        batches.write(() -> new AuditLog(userId, actorId, action.stored(), origin.ipAddress(), origin.userAgent(),
                success, at));
    }

    public Listing<AuditLog> list(ListQuery query) {
        return new EntityQuery<>(em, CATALOG).list(query);
    }
}
