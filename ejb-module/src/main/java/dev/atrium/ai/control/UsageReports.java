package dev.atrium.ai.control;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.platform.objects.ObjectStore;

/**
 * The daily usage report: per user and model, the day's requests (billed model calls: chat, stream, smart-stream,
 * WebSocket and tasks), tokens (prompt and answer) and cost, from the usage records. Written to the object store under {@code reports/usage/} as CSV and JSON by the
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

    /** The day's rows, ordered by user and model: every billed call of the day, whatever its channel. */
    public List<Row> rows(LocalDate day) {
        var from = day.atStartOfDay(ZoneOffset.UTC).toInstant();
        var to = day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        return em.createQuery("select r.userId, r.model, count(r), sum(r.inputTokens), sum(r.outputTokens), "
                        + "sum(r.cost) from UsageRecord r where r.createdAt >= :from and r.createdAt < :to "
                        + "group by r.userId, r.model order by r.userId, r.model", Object[].class)
                .setParameter("from", from).setParameter("to", to).getResultList().stream()
                .map(r -> new Row(((Number) r[0]).longValue(), (String) r[1], ((Number) r[2]).longValue(),
                        number(r[3]), number(r[4]), r[5] == null ? BigDecimal.ZERO : (BigDecimal) r[5]))
                .toList();
    }

    private static long number(Object value) {
        return value == null ? 0 : ((Number) value).longValue();
    }

    /** The reports written so far, newest first. */
    public List<String> names() {
        return objects.list(PREFIX).stream().map(k -> k.substring(PREFIX.length()))
                .filter(n -> n.matches("\\d{4}-\\d{2}-\\d{2}\\.(csv|json)"))
                .sorted(Comparator.reverseOrder()).toList();
    }

    public Optional<ObjectStore.StoredObject> read(String name) {
        if (!name.matches("\\d{4}-\\d{2}-\\d{2}\\.(csv|json)")) {
            return Optional.empty();
        }
        return objects.get(PREFIX + name);
    }
}
