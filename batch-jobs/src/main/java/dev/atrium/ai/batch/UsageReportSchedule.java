package dev.atrium.ai.batch;

import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Properties;
import java.util.logging.Logger;

import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import dev.atrium.platform.batch.BatchJobs;

/**
 * Starts the daily usage report for the day before, every day at 00:15 UTC (spec 02: every 86400 s). With several
 * instances each fires, and a marker in the shared store lets the first one run it.
 */
@Singleton
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class UsageReportSchedule {

    private static final Logger LOG = Logger.getLogger(UsageReportSchedule.class.getName());
    public static final String JOB = "daily-usage-report";

    @Inject
    BatchJobs jobs;

    @Inject
    Clock clock;

    @Schedule(hour = "0", minute = "15", persistent = false)
    void daily() {
        LocalDate day = LocalDate.now(clock.withZone(ZoneOffset.UTC)).minusDays(1);
        jobs.startOnce(JOB + ":" + day, Duration.ofDays(2), JOB, "date", day.toString())
                .ifPresent(id -> LOG.info(() -> "Daily usage report for " + day + " started as execution " + id));
    }

    /** Starts the report of a day now; answers the execution id. */
    public long start(LocalDate day) {
        var parameters = new Properties();
        parameters.setProperty("date", day.toString());
        return jobs.start(JOB, parameters);
    }
}
