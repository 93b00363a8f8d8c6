package dev.atrium.billing.batch;

import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.logging.Logger;

import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import dev.atrium.platform.batch.BatchJobs;

/**
 * Starts the {@value #JOB} job for yesterday daily at 01:30 UTC; with several instances only the one that claims the
 * day starts it. Administrators start it for any day with {@code POST /admin/batch-jobs/daily-marketplace-report/
 * executions?date=YYYY-MM-DD}.
 */
@Singleton
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class MarketplaceReportSchedule {

    public static final String JOB = "daily-marketplace-report";
    private static final Logger LOG = Logger.getLogger(MarketplaceReportSchedule.class.getName());

    @Inject
    BatchJobs jobs;

    @Inject
    Clock clock;

    @Schedule(hour = "1", minute = "30", persistent = false)
    void daily() {
        LocalDate day = LocalDate.now(clock.withZone(ZoneOffset.UTC)).minusDays(1);
        jobs.startOnce(JOB + ":" + day, Duration.ofDays(3), JOB, "date", day.toString())
                .ifPresent(id -> LOG.info(() -> "Marketplace report for " + day + " started as execution " + id));
    }
}
