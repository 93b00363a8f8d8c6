package dev.atrium.billing.batch;

import java.time.Clock;
import java.time.Duration;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Properties;
import java.util.logging.Logger;

import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.billing.control.BillingConfig;
import dev.atrium.platform.batch.BatchJobs;

/**
 * Starts the {@value #JOB} job for the previous month on the 1st of each month at {@code atrium.billing.payout.hour}
 * (UTC, default 3); with several instances, only the one that claims the month in the key-value store starts it.
 * Administrators start it for any month with {@code POST /v1/admin/billing/payout-runs}.
 */
@Singleton
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class PayoutSchedule {

    public static final String JOB = "monthly-payout";
    private static final Logger LOG = Logger.getLogger(PayoutSchedule.class.getName());

    @Inject
    BatchJobs jobs;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperties
    BillingConfig config;

    @Schedule(hour = "*", minute = "5", persistent = false)
    void hourly() {
        ZonedDateTime now = ZonedDateTime.now(clock.withZone(ZoneOffset.UTC));
        if (now.getDayOfMonth() != 1 || now.getHour() < config.payoutHour) {
            return;
        }
        YearMonth month = YearMonth.from(now).minusMonths(1);
        jobs.startOnce(JOB + ":" + month, Duration.ofDays(40), JOB, "month", month.toString())
                .ifPresent(id -> LOG.info(() -> "Monthly payout for " + month + " started as execution " + id));
    }

    public long start(YearMonth month) {
        var parameters = new Properties();
        parameters.setProperty("month", month.toString());
        return jobs.start(JOB, parameters);
    }
}
