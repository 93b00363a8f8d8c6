package dev.atrium.marketplace.control;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Timestamp;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.criteria.Predicate;

import dev.atrium.marketplace.entity.runtime.AgentUsage;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/** What billing reads of the marketplace's usage records: the facts of one priced invocation, by id. */
@Stateless
public class UsageQueries {

    /** One usage record as billing sees it: who pays, who earns, how much, and the hold placed for it. */
    public record BillableUsage(UUID usageId, long userId, UUID agentId, String agentName, long developerId,
                                BigDecimal priceCharged, UUID holdId, Instant recordedAt) {
    }

    /** The caller's usage records: filters {@code agent_id}, {@code month} (YYYY-MM, UTC), {@code succeeded}. */
    static final Catalog<AgentUsage> USAGE = Catalog
            .of(AgentUsage.class).id("id", UUID.class).createdAt("timestamp")
            .filterable("agent_id", "agentId", UUID.class)
            .filterable("succeeded", "succeeded", Boolean.class)
            .sortable("price_charged", "priceCharged", BigDecimal.class, true)
            .filter("month", (cb, q, root, values) -> {
                var any = new ArrayList<Predicate>();
                for (String v : values) {
                    YearMonth month = month(v);
                    any.add(cb.and(cb.greaterThanOrEqualTo(root.get("timestamp"), start(month)),
                            cb.lessThan(root.get("timestamp"), start(month.plusMonths(1)))));
                }
                return cb.or(any.toArray(Predicate[]::new));
            });

    /** A calendar month, YYYY-MM; 422 otherwise. */
    public static YearMonth month(String text) {
        try {
            if (text != null && text.matches("[0-9]{4}-[0-9]{2}")) {
                return YearMonth.parse(text);
            }
        } catch (DateTimeException e) {
            // answered below
        }
        throw BusinessException.validation("month: a calendar month as YYYY-MM");
    }

    static Instant start(YearMonth month) {
        return month.atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    /** One agent's figures for a developer's month: successful calls, what callers paid, the developer's 70 %. */
    public record AgentRevenue(UUID agentId, String agentName, long calls, BigDecimal gross,
                               BigDecimal developerShare) {
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    public Listing<AgentUsage> mine(long userId, ListQuery query) {
        return new EntityQuery<>(em, USAGE).list(query,
                (cb, q, root) -> cb.equal(root.get("userId"), userId));
    }

    /** The month's successful calls of the developer's agents, per agent, by name. */
    public List<AgentRevenue> revenue(long developerId, YearMonth month) {
        var rows = em.createQuery("SELECT a.id, a.name, COUNT(u), SUM(u.priceCharged), SUM(u.developerShare) "
                        + "FROM AgentUsage u, Agent a WHERE a.id = u.agentId AND a.authorId = :author "
                        + "AND u.succeeded = TRUE AND u.timestamp >= :start AND u.timestamp < :end "
                        + "GROUP BY a.id, a.name ORDER BY a.name", Object[].class)
                .setParameter("author", developerId).setParameter("start", start(month))
                .setParameter("end", start(month.plusMonths(1))).getResultList();
        return rows.stream().map(r -> new AgentRevenue((UUID) r[0], (String) r[1], ((Number) r[2]).longValue(),
                money(r[3]), money(r[4]))).toList();
    }

    /** One agent's day: calls, successful calls, what callers paid and the developer's share. */
    public record AgentDay(UUID agentId, String agentName, long calls, long succeeded, BigDecimal gross,
                           BigDecimal developerShare) {
    }

    /**
     * Each agent called between the instants, by name. Native SQL: for {@code u.succeeded = TRUE} inside a CASE
     * EclipseLink binds 1 on H2, which H2 will not compare with a boolean.
     */
    @SuppressWarnings("unchecked")
    public List<AgentDay> byAgent(Instant start, Instant end) {
        List<Object[]> rows = em.createNativeQuery("SELECT a.id, a.name, COUNT(*), "
                        + "SUM(CASE WHEN u.succeeded THEN 1 ELSE 0 END), SUM(u.price_charged), SUM(u.developer_share) "
                        + "FROM agent_usage_records u JOIN agents a ON a.id = u.agent_id "
                        + "WHERE u.recorded_at >= ? AND u.recorded_at < ? GROUP BY a.id, a.name ORDER BY a.name")
                .setParameter(1, Timestamp.from(start)).setParameter(2, Timestamp.from(end))
                .getResultList();
        return rows.stream().map(r -> new AgentDay((UUID) r[0], (String) r[1], ((Number) r[2]).longValue(),
                ((Number) r[3]).longValue(), money(r[4]), money(r[5]))).toList();
    }

    /** How many usage records between the instants were charged (price above zero), and their sum. */
    public record Charged(long count, BigDecimal sum) {
    }

    public Charged chargedOn(Instant start, Instant end) {
        Object[] row = (Object[]) em.createQuery("SELECT COUNT(u), SUM(u.priceCharged) FROM AgentUsage u WHERE "
                        + "u.priceCharged > 0 AND u.timestamp >= :start AND u.timestamp < :end")
                .setParameter("start", start).setParameter("end", end).getSingleResult();
        return new Charged(((Number) row[0]).longValue(), money(row[1]));
    }

    /** The ids of the usage records between the instants that were charged. */
    public List<UUID> chargedIdsOn(Instant start, Instant end) {
        return em.createQuery("SELECT u.id FROM AgentUsage u WHERE u.priceCharged > 0 AND u.timestamp >= :start "
                        + "AND u.timestamp < :end", UUID.class)
                .setParameter("start", start).setParameter("end", end).getResultList();
    }

    /**
     * The usage records between the instants charged above what admission held for them: a price with no hold, or
     * above the decided maximum (records older than that decision carry none and are left out).
     */
    public List<UUID> chargedAboveDecision(Instant start, Instant end, int max) {
        return em.createQuery("SELECT u.id FROM AgentUsage u WHERE u.priceCharged > 0 AND u.timestamp >= :start "
                        + "AND u.timestamp < :end AND u.maxCharge IS NOT NULL AND (u.holdId IS NULL "
                        + "OR u.priceCharged > u.maxCharge) ORDER BY u.id", UUID.class)
                .setParameter("start", start).setParameter("end", end).setMaxResults(max).getResultList();
    }

    private static BigDecimal money(Object value) {
        return (value == null ? BigDecimal.ZERO : (BigDecimal) value).setScale(6, RoundingMode.HALF_EVEN);
    }

    /** Several usage records at once (one query), by id; ids not found are left out. */
    public Map<UUID, BillableUsage> billable(Collection<UUID> usageIds) {
        if (usageIds.isEmpty()) {
            return Map.of();
        }
        // only the columns billing needs: managed usage and agent entities (the agent with its card) would be
        // compared again at each of the batch's flushes
        var rows = em.createQuery("SELECT u.id, u.userId, a.id, a.name, a.authorId, u.priceCharged, u.holdId, "
                + "u.timestamp FROM AgentUsage u, Agent a WHERE a.id = u.agentId AND u.id IN :ids", Object[].class)
                .setParameter("ids", usageIds).getResultList();
        var result = new HashMap<UUID, BillableUsage>();
        for (Object[] r : rows) {
            result.put((UUID) r[0], new BillableUsage((UUID) r[0], ((Number) r[1]).longValue(), (UUID) r[2],
                    (String) r[3], ((Number) r[4]).longValue(), (BigDecimal) r[5], (UUID) r[6], (Instant) r[7]));
        }
        return result;
    }

    public Optional<BillableUsage> billable(UUID usageId) {
        return Optional.ofNullable(billable(List.of(usageId)).get(usageId));
    }
}
