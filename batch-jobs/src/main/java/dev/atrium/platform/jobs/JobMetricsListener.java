package dev.atrium.platform.jobs;

import java.time.Duration;
import java.util.Locale;

import jakarta.batch.api.listener.JobListener;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.context.JobContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Times each job execution into {@value #METRIC} per job and outcome ({@code completed}, {@code failed},
 * {@code stopping}): the timer's count is the executions, its sum their durations. Every job lists it, beside the
 * execution lease.
 */
@Named("jobMetrics")
@Dependent
public class JobMetricsListener implements JobListener {

    public static final String METRIC = "atrium_batch_job_duration";

    @Inject
    JobContext job;

    @Inject
    MetricRegistry metrics;

    private long started;

    @Override
    public void beforeJob() {
        started = System.nanoTime();
    }

    @Override
    public void afterJob() {
        var status = job.getBatchStatus();
        // the runtime sets the final status after the listeners: a job ending normally is still STARTED here
        String outcome = status == null || status == BatchStatus.STARTED ? "completed"
                : status.name().toLowerCase(Locale.ROOT);
        metrics.timer(METRIC, new Tag("job", job.getJobName()), new Tag("outcome", outcome))
                .update(Duration.ofNanos(System.nanoTime() - started));
    }
}
