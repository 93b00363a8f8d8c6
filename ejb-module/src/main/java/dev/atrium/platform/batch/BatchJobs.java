package dev.atrium.platform.batch;

import java.time.Instant;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;

import jakarta.batch.operations.JobOperator;
import jakarta.batch.operations.JobStartException;
import jakarta.batch.operations.NoSuchJobExecutionException;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.batch.runtime.JobExecution;
import jakarta.enterprise.context.ApplicationScoped;

import dev.atrium.platform.error.BusinessException;

/**
 * Starting Jakarta Batch jobs by name (from a schedule or an administrator) and reading their executions. The
 * job repository lives in the application database (see the run scripts).
 */
@ApplicationScoped
public class BatchJobs {

    @jakarta.inject.Inject
    dev.atrium.platform.kv.KeyValueStore store;

    private static final Pattern NAME = Pattern.compile("^[a-z0-9][a-z0-9-]{0,63}$");

    /** What an execution shows. */
    public record Execution(long id, String jobName, String status, String exitStatus, Instant createdAt,
                            Instant startedAt, Instant endedAt) {

        static Execution from(JobExecution e) {
            return new Execution(e.getExecutionId(), e.getJobName(), e.getBatchStatus().name(), e.getExitStatus(),
                    instant(e.getCreateTime()), instant(e.getStartTime()), instant(e.getEndTime()));
        }

        private static Instant instant(java.util.Date date) {
            return date == null ? null : date.toInstant();
        }
    }

    public long start(String jobName, Properties parameters) {
        if (jobName == null || !NAME.matcher(jobName).matches()) {
            throw BusinessException.notFound("Batch job");
        }
        try {
            return operator().start(jobName, parameters);
        } catch (JobStartException e) {
            throw BusinessException.notFound("Batch job " + jobName);
        }
    }

    /**
     * Starts the job once across instances: only the caller that claims {@code claim} in the shared store (kept for
     * {@code keep}) starts it, as schedules firing on every instance need; answers the execution, or empty when
     * another instance claimed it first. The parameters are name, value pairs.
     */
    public java.util.OptionalLong startOnce(String claim, java.time.Duration keep, String jobName,
                                            String... parameters) {
        if (!store.setIfAbsent("batch-claim:" + claim, "1", keep)) {
            return java.util.OptionalLong.empty();
        }
        var properties = new Properties();
        for (int i = 0; i + 1 < parameters.length; i += 2) {
            properties.setProperty(parameters[i], parameters[i + 1]);
        }
        return java.util.OptionalLong.of(start(jobName, properties));
    }

    public Optional<Execution> execution(long id) {
        try {
            return Optional.ofNullable(operator().getJobExecution(id)).map(Execution::from);
        } catch (NoSuchJobExecutionException e) {
            return Optional.empty();
        }
    }

    private static JobOperator operator() {
        return BatchRuntime.getJobOperator();
    }
}
