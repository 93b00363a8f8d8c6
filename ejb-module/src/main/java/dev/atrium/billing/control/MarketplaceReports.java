package dev.atrium.billing.control;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import dev.atrium.billing.entity.RevenueSplit;
import dev.atrium.marketplace.control.UsageQueries;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.objects.ObjectStore;

/**
 * The daily marketplace report: per agent, the day's calls, successful calls, gross revenue and its 70/20/10 shares,
 * and a totals line, as CSV in the object store ({@value #PREFIX}{@code <date>.csv}). Writing a day again replaces
 * its report with the same figures.
 */
@Stateless
public class MarketplaceReports {

    public static final String PREFIX = "reports/marketplace/";

    /** One line of the report. */
    public record Line(String agentId, String agentName, long calls, long succeeded, RevenueSplit split) {
    }

    @EJB
    UsageQueries usages;

    @Inject
    ObjectStore objects;

    @Inject
    Clock clock;

    /** The day a run reports by default: yesterday (UTC). */
    public LocalDate yesterday() {
        return LocalDate.now(clock.withZone(ZoneOffset.UTC)).minusDays(1);
    }

    public List<Line> lines(LocalDate day) {
        var start = day.atStartOfDay(ZoneOffset.UTC).toInstant();
        return usages.byAgent(start, day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant()).stream()
                .map(a -> new Line(a.agentId().toString(), a.agentName(), a.calls(), a.succeeded(),
                        RevenueSplit.of(a.gross()))).toList();
    }

    /** Stores the day's CSV; answers the number of agent lines. */
    public int write(LocalDate day, String csv, int agents) {
        objects.put(PREFIX + day + ".csv", new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)),
                "text/csv; charset=utf-8");
        return agents;
    }

    public ObjectStore.StoredObject report(LocalDate day) {
        return objects.get(PREFIX + day + ".csv").orElseThrow(() -> BusinessException.notFound("Report"));
    }
}
