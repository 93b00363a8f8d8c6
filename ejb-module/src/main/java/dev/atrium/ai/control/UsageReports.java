package dev.atrium.ai.control;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.platform.objects.ObjectStore;

/**
 * The daily usage report: per user and model, the day's requests (answers), tokens (prompt and answer) and cost, from
 * the stored chat messages. Written to the object store under {@code reports/usage/} as CSV and JSON by the
 * {@code daily-usage-report} batch job.
 */
@Stateless
public class UsageReports {

    public static final String PREFIX = "reports/usage/";

    /** One line of the report. */
    public record Row(long userId, String model, long requests, long inputTokens, long outputTokens,
                      BigDecimal cost) {

        public long tokens() {
            return inputTokens + outputTokens;
        }
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    ObjectStore objects;

    /** The day's rows, ordered by user and model. */
    public List<Row> rows(LocalDate day) {
        var from = day.atStartOfDay(ZoneOffset.UTC).toInstant();
        var to = day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        List<Object[]> raw = em.createQuery("select c.userId, m.model, m.role, count(m), sum(m.tokenCount), "
                        + "sum(m.cost) from Message m, Conversation c where m.conversationId = c.id "
                        + "and m.createdAt >= :from and m.createdAt < :to "
                        + "group by c.userId, m.model, m.role order by c.userId, m.model", Object[].class)
                .setParameter("from", from).setParameter("to", to).getResultList();
        var rows = new LinkedHashMap<String, long[]>();
        var costs = new LinkedHashMap<String, BigDecimal>();
        for (Object[] r : raw) {
            String key = r[0] + "\t" + (r[1] == null ? "" : r[1]);
            long[] totals = rows.computeIfAbsent(key, k -> new long[3]);
            long count = ((Number) r[3]).longValue();
            long tokens = r[4] == null ? 0 : ((Number) r[4]).longValue();
            if ("assistant".equals(r[2])) {
                totals[0] += count;
                totals[2] += tokens;
            } else {
                totals[1] += tokens;
            }
            costs.merge(key, r[5] == null ? BigDecimal.ZERO : (BigDecimal) r[5], BigDecimal::add);
        }
        var result = new ArrayList<Row>();
        for (Map.Entry<String, long[]> e : rows.entrySet()) {
            String[] key = e.getKey().split("\t", -1);
            result.add(new Row(Long.parseLong(key[0]), key[1], e.getValue()[0], e.getValue()[1], e.getValue()[2],
                    costs.get(e.getKey())));
        }
        return result;
    }

    /** The reports written so far, newest first. */
    public List<String> names() {
        return objects.list(PREFIX).stream().map(k -> k.substring(PREFIX.length()))
                .filter(n -> n.matches("\\d{4}-\\d{2}-\\d{2}\\.(csv|json)"))
                .sorted(java.util.Comparator.reverseOrder()).toList();
    }

    public java.util.Optional<ObjectStore.StoredObject> read(String name) {
        if (!name.matches("\\d{4}-\\d{2}-\\d{2}\\.(csv|json)")) {
            return java.util.Optional.empty();
        }
        return objects.get(PREFIX + name);
    }
}
