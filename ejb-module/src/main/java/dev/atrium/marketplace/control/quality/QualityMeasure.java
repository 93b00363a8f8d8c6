package dev.atrium.marketplace.control.quality;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;

import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.marketplace.entity.quality.QualityScore;

/**
 * An agent's quality figures over [from, to) from its usage records (calls, successes, mean execution time, mean
 * price charged) and its incidents, for the whole agent or one version of it.
 */
@Stateless
public class QualityMeasure {

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    /** {@code version} null for every version of the agent. */
    public QualityScore measure(UUID agentId, String version, Instant from, Instant to) {
        var query = em.createNativeQuery("SELECT COUNT(*), COALESCE(SUM(CASE WHEN succeeded THEN 1 ELSE 0 END), 0), "
                + "COALESCE(AVG(execution_time_s), 0), COALESCE(AVG(price_charged), 0) FROM agent_usage_records "
                + "WHERE agent_id = ? AND recorded_at >= ? AND recorded_at < ?"
                + (version == null ? "" : " AND agent_version = ?"));
        query.setParameter(1, agentId).setParameter(2, Timestamp.from(from)).setParameter(3, Timestamp.from(to));
        if (version != null) {
            query.setParameter(4, version);
        }
        Object[] row = (Object[]) query.getSingleResult();
        long incidents = ((Number) em.createNativeQuery("SELECT COUNT(*) FROM agent_incidents WHERE agent_id = ? "
                        + "AND created_at >= ? AND created_at < ?")
                .setParameter(1, agentId).setParameter(2, Timestamp.from(from)).setParameter(3, Timestamp.from(to))
                .getSingleResult()).longValue();
        return QualityScore.of(((Number) row[0]).longValue(), ((Number) row[1]).longValue(),
                ((Number) row[2]).doubleValue(), ((Number) row[3]).doubleValue(), (int) Math.min(incidents, 1000));
    }
}
