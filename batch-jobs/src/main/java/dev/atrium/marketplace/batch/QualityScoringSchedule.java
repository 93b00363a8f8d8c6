package dev.atrium.marketplace.batch;

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
 * Starts the {@value #JOB} batch job daily at 02:30 UTC; with several instances, only the one that claims the day in
 * the key-value store starts it. Operators start it any time with {@code POST /admin/batch-jobs/quality-scoring/
 * executions}.
 */
@Singleton
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class QualityScoringSchedule {

    private static final Logger LOG = Logger.getLogger(QualityScoringSchedule.class.getName());
    public static final String JOB = "quality-scoring";

    @Inject
    BatchJobs jobs;

    @Inject
    Clock clock;

    @Schedule(hour = "2", minute = "30", persistent = false)
    void daily() {
        LocalDate day = LocalDate.now(clock.withZone(ZoneOffset.UTC));
        jobs.startOnce(JOB + ":" + day, Duration.ofDays(2), JOB)
                .ifPresent(id -> LOG.info(() -> "Quality scoring for " + day + " started as execution " + id));
    }
}
