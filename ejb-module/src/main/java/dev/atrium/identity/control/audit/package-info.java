/**
 * The audit log: {@code AuditService} writes an entry in a transaction of its own (group-committed by
 * {@code AuditBatches}) and lists them; {@code AuditAction} names what is recorded.
 */
package dev.atrium.identity.control.audit;
