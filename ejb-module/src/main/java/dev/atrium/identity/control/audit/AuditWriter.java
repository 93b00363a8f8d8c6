package dev.atrium.identity.control.audit;

import java.util.List;
import java.util.function.Supplier;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.identity.entity.AuditLog;

/**
 * Writes audit entries in one transaction of their own, so an entry stays although the request that made it rolls
 * back. Only {@link AuditBatches} calls it, one batch at a time: a bean of its own, so the audit service's callers
 * waiting for their batch never hold the instance it needs.
 */
@Stateless
public class AuditWriter {

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    /** Each entry made afresh, so a batch that failed can be written again entry by entry. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void write(List<Supplier<AuditLog>> entries) {
        entries.forEach(entry -> em.persist(entry.get()));
    }
}
