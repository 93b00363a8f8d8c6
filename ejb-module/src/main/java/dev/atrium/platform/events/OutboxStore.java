package dev.atrium.platform.events;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.platform.PlatformConfig;
import dev.atrium.platform.telemetry.TraceParents;

/**
 * The outbox table's side of the relay, each method a transaction of its own. {@link #relayDue} takes due rows with
 * {@code FOR UPDATE SKIP LOCKED} (PostgreSQL and H2 both have it): while one instance's relay holds a batch, another
 * instance's relay skips those rows and takes the next ones, so no row is published by two relays at once and no
 * leader election is needed. A row is marked sent in the same transaction that locked it, right after the broker
 * took it.
 */
@Stateless
public class OutboxStore {

    /** Hands events to the broker, all or none (one broker transaction); throws when the broker did not take them. */
    @FunctionalInterface
    public interface Publisher {
        void publish(List<OutboxEvent> events);
    }

    /** What one round did: rows sent, and whether a publish failed (the broker is probably away). */
    public record Round(int sent, boolean failed) {
    }

    static final String DUE = "SELECT * FROM outbox_events WHERE sent_at IS NULL"
            + " AND (next_attempt_at IS NULL OR next_attempt_at <= ?1)"
            + " ORDER BY created_at LIMIT ?2 FOR UPDATE SKIP LOCKED";

    private static final Logger LOG = Logger.getLogger(OutboxStore.class.getName());

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperties
    PlatformConfig config;

    /** Writes the event's row in the caller's transaction, with the trace context current here (if any). */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public OutboxEvent append(ApplicationEvent event) {
        var row = new OutboxEvent(event, clock.instant(), TraceParents.current());
        em.persist(row);
        return row;
    }

    /**
     * Publishes up to {@code max} due events, in the order they were written, as one batch. When the broker does not
     * take the batch, the oldest row counts the failed attempt and waits its backoff, so that a row the broker keeps
     * refusing moves out of the way of the others; the rest stay as they were.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Round relayDue(int max, Publisher publisher) {
        var now = clock.instant();
        @SuppressWarnings("unchecked")
        List<OutboxEvent> due = em.createNativeQuery(DUE, OutboxEvent.class)
                .setParameter(1, now.atOffset(ZoneOffset.UTC))
                .setParameter(2, max)
                .getResultList();
        if (due.isEmpty()) {
            return new Round(0, false);
        }
        try {
            publisher.publish(due);
        } catch (RuntimeException e) {
            var first = due.get(0);
            var backoff = backoff(first.attempts() + 1);
            first.failed(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(), now, backoff);
            LOG.fine(() -> "Could not publish " + due.size() + " events; " + first.type() + " " + first.id()
                    + " waits " + backoff);
            return new Round(0, true);
        }
        // by primary key, all in one statement: a JPQL bulk update would have EclipseLink match every event of the
        // persistence context against the whole id list in memory (most of the relay's time), and a statement per
        // row, even in one JDBC batch, cost PostgreSQL twice the time per row (pg_stat_statements, bench-billing)
        int marked;
        var connection = em.unwrap(Connection.class);
        try (var update = connection.prepareStatement("UPDATE outbox_events SET sent_at = ?, attempts = attempts + 1,"
                + " next_attempt_at = NULL WHERE id = ANY (?)")) {
            update.setObject(1, clock.instant().atOffset(ZoneOffset.UTC));
            update.setArray(2, connection.createArrayOf("uuid", due.stream().map(OutboxEvent::id).toArray()));
            marked = update.executeUpdate();
        } catch (SQLException e) {
            throw new PersistenceException("Marking " + due.size() + " events sent failed", e);
        }
        return new Round(marked, false);
    }

    /** Deletes events sent before {@code before}; answers how many. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int prune(Instant before) {
        return em.createQuery("DELETE FROM OutboxEvent e WHERE e.sentAt < :before")
                .setParameter("before", before)
                .executeUpdate();
    }

    /** Events not yet sent. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public long pending() {
        return em.createQuery("SELECT COUNT(e) FROM OutboxEvent e WHERE e.sentAt IS NULL", Long.class)
                .getSingleResult();
    }

    /** When the oldest event not yet sent was written; empty when none waits. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Optional<Instant> oldestPending() {
        return Optional.ofNullable(em.createQuery(
                "SELECT MIN(e.createdAt) FROM OutboxEvent e WHERE e.sentAt IS NULL", Instant.class).getSingleResult());
    }

    /** 1 s after the first failure, doubling, at most {@code atrium.outbox.max-backoff-seconds}. */
    Duration backoff(int attempts) {
        long seconds = 1L << Math.min(Math.max(attempts - 1, 0), 20);
        return Duration.ofSeconds(Math.min(seconds, Math.max(1, config.outboxMaxBackoffSeconds)));
    }
}
