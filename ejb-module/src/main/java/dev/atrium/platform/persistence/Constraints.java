package dev.atrium.platform.persistence;

import java.sql.SQLException;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;

/** Telling a unique-key violation apart from other database failures, on PostgreSQL and H2 alike. */
public final class Constraints {

    private static final String UNIQUE_VIOLATION = "23505";

    private Constraints() {
    }

    /**
     * Persists and flushes the entity; {@code false} when a unique key was violated (the transaction is then
     * marked for rollback, and the caller answers with a conflict).
     */
    public static boolean persistUnique(EntityManager em, Object entity) {
        try {
            em.persist(entity);
            em.flush();
            return true;
        } catch (PersistenceException e) {
            if (isUniqueViolation(e)) {
                return false;
            }
            throw e;
        }
    }

    public static boolean isUniqueViolation(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState())) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
