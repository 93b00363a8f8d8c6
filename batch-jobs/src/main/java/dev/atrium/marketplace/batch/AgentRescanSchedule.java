package dev.atrium.marketplace.batch;

import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import dev.atrium.marketplace.control.checks.SafetyChecks;
import dev.atrium.platform.batch.BatchJobs;

/**
 * Starts the {@value #JOB} batch job daily at 04:00 UTC, and when the advisory data of the dependency check changes
 * (the file {@code atrium.marketplace.advisories} names, looked at every minute; see
 * {@link SafetyChecks#advisoriesFingerprint()}).
 * Each start carries the fingerprint of the advisory data as the job parameter {@value #ADVISORIES}, so an instance
 * that starts later compares the data with what the last execution was started for: a change made while it was down
 * starts a re-scan, a restart alone does not. With several instances, only the one that claims the day, or the change,
 * in the key-value store starts it. Operators start it any time with
 * {@code POST /admin/batch-jobs/agent-rescan/executions}.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class AgentRescanSchedule {

    private static final Logger LOG = Logger.getLogger(AgentRescanSchedule.class.getName());
    public static final String JOB = "agent-rescan";
    /** The job parameter naming the advisory data's fingerprint at the start. */
    public static final String ADVISORIES = "advisories";

    @Inject
    BatchJobs jobs;

    @Inject
    SafetyChecks checks;

    @Inject
    Clock clock;

    /** The fingerprint this instance last compared; null until its first look. */
    private String seen;
    /** The fingerprint at deployment, the baseline when no execution names one; null when unreadable then. */
    private String deployed;

    @PostConstruct
    void deployed() {
        try {
            deployed = checks.advisoriesFingerprint();
        } catch (RuntimeException e) {
            LOG.warning(() -> "The advisory data could not be read at deployment: " + e);
        }
    }

    @Schedule(hour = "4", minute = "0", persistent = false)
    void daily() {
        LocalDate day = LocalDate.now(clock.withZone(ZoneOffset.UTC));
        String fingerprint = checks.advisoriesFingerprint();
        jobs.startOnce(JOB + ":" + day, Duration.ofDays(2), JOB, ADVISORIES, fingerprint)
                .ifPresent(id -> LOG.info(() -> "Agent re-scan for " + day + " started as execution " + id));
    }

    @Schedule(hour = "*", minute = "*", persistent = false)
    void watchAdvisories() {
        if (jobs.schedulePaused(JOB)) {
            // the change is still seen once the schedule runs again
            return;
        }
        try {
            String now = checks.advisoriesFingerprint();
            // the first look compares with the last execution's data; no execution yet, or one started without it
            // (by an administrator): the data at deployment is the baseline
            String before = seen != null ? seen
                    : jobs.latestParameter(JOB, ADVISORIES).orElse(deployed != null ? deployed : now);
            if (!before.equals(now)) {
                // the claim names the change, so every instance seeing it within the hour starts one execution
                jobs.startOnce(JOB + ":advisories:" + before + ">" + now, Duration.ofHours(1), JOB, ADVISORIES, now)
                        .ifPresent(id -> LOG.info(() -> "The advisory data changed (" + before + " to " + now
                                + "): agent re-scan started as execution " + id));
            }
            seen = now;
        } catch (RuntimeException e) {
            // an unreadable file or a batch runtime not up yet: the next minute looks again
            LOG.warning(() -> "The advisory data could not be compared for a re-scan: " + e);
        }
    }
}
