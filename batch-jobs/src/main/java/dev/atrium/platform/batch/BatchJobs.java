package dev.atrium.platform.batch;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.logging.Logger;
import java.util.regex.Pattern;

import jakarta.batch.operations.JobExecutionAlreadyCompleteException;
import jakarta.batch.operations.JobExecutionNotMostRecentException;
import jakarta.batch.operations.JobExecutionNotRunningException;
import jakarta.batch.operations.JobOperator;
import jakarta.batch.operations.JobRestartException;
import jakarta.batch.operations.NoSuchJobException;
import jakarta.batch.operations.NoSuchJobInstanceException;
import jakarta.batch.operations.JobStartException;
import jakarta.batch.operations.NoSuchJobExecutionException;
import jakarta.batch.runtime.BatchRuntime;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import jakarta.batch.runtime.JobInstance;
import jakarta.batch.runtime.Metric;
import jakarta.batch.runtime.StepExecution;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.persistence.DatabaseMigrations;

/**
 * Starting Jakarta Batch jobs by name (from a schedule or an administrator) and reading their executions. The
 * job repository lives in the application database (see the run scripts).
 */
@ApplicationScoped
public class BatchJobs {

    @Inject
    KeyValueStore store;

    @EJB
    ExecutionLeases leases;

    @EJB
    DatabaseMigrations migrations;

    @Inject
    Config config;

    /**
     * Pauses the schedules: {@code all} (or {@code true}), or a comma-separated list of job names; empty, {@code none}
     * or {@code false} lets them run. Read at every firing, so an administrator pauses them on a running server: on
     * Payara Server as a MicroProfile Config property of the domain (admin console: Configurations > server-config >
     * MicroProfile > Config, or {@code asadmin set-config-property}), on Payara Micro through the environment
     * ({@code ATRIUM_BATCH_SCHEDULES_PAUSED}). Starts by an administrator are not paused.
     */
    public static final String SCHEDULES_PAUSED = "atrium.batch.schedules.paused";

    private static final Logger LOG = Logger.getLogger(BatchJobs.class.getName());

    private static final Duration STEP_START_WAIT = Duration.ofSeconds(10);

    private static final Pattern NAME = Pattern.compile("^[a-z0-9][a-z0-9-]{0,63}$");

    /** A step of an execution and its counts (a restarted chunk step counts only what it did itself). */
    public record Step(String name, String status, long readCount, long writeCount, long commitCount) {

        static Step from(StepExecution s) {
            long read = 0;
            long write = 0;
            long commit = 0;
            for (Metric m : s.getMetrics() == null ? new Metric[0] : s.getMetrics()) {
                switch (m.getType()) {
                    case READ_COUNT -> read = m.getValue();
                    case WRITE_COUNT -> write = m.getValue();
                    case COMMIT_COUNT -> commit = m.getValue();
                    default -> { }
                }
            }
            return new Step(s.getStepName(), s.getBatchStatus() == null ? null : s.getBatchStatus().name(), read,
                    write, commit);
        }
    }

    /** The job parameter naming the execution a restart continues. */
    public static final String RESTART_OF = "restart_of";

    /** What an execution shows; {@code restartOf} is the execution it continues, when it is a restart. */
    public record Execution(long id, long instanceId, String jobName, String status, String exitStatus,
                            Instant createdAt, Instant startedAt, Instant endedAt, Long restartOf, List<Step> steps) {

        static Execution from(JobExecution e, long instanceId, List<StepExecution> steps) {
            var parameters = e.getJobParameters();
            String restartOf = parameters == null ? null : parameters.getProperty(RESTART_OF);
            Long continues = restartOf != null && restartOf.matches("\\d{1,18}") ? Long.valueOf(restartOf) : null;
            return new Execution(e.getExecutionId(), instanceId, e.getJobName(), e.getBatchStatus().name(),
                    e.getExitStatus(), instant(e.getCreateTime()), instant(e.getStartTime()),
                    instant(e.getEndTime()), continues, steps.stream().map(Step::from).toList());
        }

        /** Whether the runtime shows it under way (a killed process leaves it so). */
        public boolean running() {
            return List.of("STARTING", "STARTED", "STOPPING").contains(status);
        }

        private static Instant instant(Date date) {
            return date == null ? null : date.toInstant();
        }
    }

    public long start(String jobName, Properties parameters) {
        if (jobName == null || !NAME.matcher(jobName).matches()) {
            throw BusinessException.notFound("Batch job");
        }
        if (parameters.containsKey(RESTART_OF)) {
            throw BusinessException.validation(RESTART_OF + " is set by a restart, not by a start");
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
    public OptionalLong startOnce(String claim, Duration keep, String jobName,
                                            String... parameters) {
        if (schedulePaused(jobName)) {
            LOG.info(() -> "The schedule of " + jobName + " is paused (" + SCHEDULES_PAUSED + "): " + claim
                    + " not started");
            return OptionalLong.empty();
        }
        if (!store.setIfAbsent("batch-claim:" + claim, "1", keep)) {
            return OptionalLong.empty();
        }
        var properties = new Properties();
        for (int i = 0; i + 1 < parameters.length; i += 2) {
            properties.setProperty(parameters[i], parameters[i + 1]);
        }
        return OptionalLong.of(start(jobName, properties));
    }

    /**
     * Whether {@value #SCHEDULES_PAUSED} holds the job's schedule back now; so does a start whose migrations are not
     * done yet (a schedule can fire before them on a slow start).
     */
    public boolean schedulePaused(String jobName) {
        return !migrated() || paused(config.getOptionalValue(SCHEDULES_PAUSED, String.class).orElse(""), jobName);
    }

    private boolean migrated() {
        return migrations.schemaVersion().isPresent();
    }

    static boolean paused(String setting, String jobName) {
        String value = setting == null ? "" : setting.trim().toLowerCase(Locale.ROOT);
        if (value.isEmpty() || value.equals("none") || value.equals("false")) {
            return false;
        }
        if (value.equals("all") || value.equals("true") || value.equals("*")) {
            return true;
        }
        return Arrays.stream(value.split(",")).map(String::trim).anyMatch(jobName::equals);
    }

    public Optional<Execution> execution(long id) {
        try {
            var operator = operator();
            return Optional.ofNullable(operator.getJobExecution(id))
                    .map(e -> Execution.from(e, operator.getJobInstance(id).getInstanceId(),
                            operator.getStepExecutions(id)));
        } catch (NoSuchJobExecutionException e) {
            return Optional.empty();
        }
    }

    /**
     * The executions of a job's {@code instances} most recent instances, newest first; empty for a job never run.
     */
    public List<Execution> executions(String jobName, int instances) {
        if (jobName == null || !NAME.matcher(jobName).matches()) {
            throw BusinessException.notFound("Batch job");
        }
        var operator = operator();
        List<JobInstance> found;
        try {
            found = operator.getJobInstances(jobName, 0, instances);
        } catch (NoSuchJobException e) {
            return List.of();
        }
        var all = new ArrayList<Execution>();
        for (JobInstance instance : found) {
            try {
                operator.getJobExecutions(instance)
                        .forEach(e -> all.add(Execution.from(e, instance.getInstanceId(),
                                operator.getStepExecutions(e.getExecutionId()))));
            } catch (NoSuchJobInstanceException e) {
                // purged between the two reads
            }
        }
        all.sort(Comparator.comparingLong(Execution::id).reversed());
        return all;
    }

    /**
     * A parameter of the job's latest start (its newest instance); empty for a job never run or a start without it.
     */
    public Optional<String> latestParameter(String jobName, String parameter) {
        var operator = operator();
        try {
            for (JobInstance instance : operator.getJobInstances(jobName, 0, 1)) {
                return operator.getJobExecutions(instance).stream()
                        .max(Comparator.comparingLong(JobExecution::getExecutionId))
                        .map(JobExecution::getJobParameters)
                        .map(p -> p.getProperty(parameter));
            }
        } catch (NoSuchJobException | NoSuchJobInstanceException e) {
            // never run, or purged meanwhile
        }
        return Optional.empty();
    }

    /**
     * Restarts a stopped, failed or abandoned-by-its-process execution from its last checkpoint, as a new execution
     * of the same job instance with the original parameters and {@value #RESTART_OF}; answers the new execution.
     * 404 when there is no such execution, 409 when it completed, is still alive, or a later execution exists.
     */
    public long restart(long id) {
        var execution = execution(id).orElseThrow(() -> BusinessException.notFound("Batch execution"));
        if (leases.alive(id)) {
            throw BusinessException.conflict("Batch execution " + id + " is still running");
        }
        if ("COMPLETED".equals(execution.status()) || "ABANDONED".equals(execution.status())) {
            throw BusinessException.conflict("Batch execution " + id + " is " + execution.status());
        }
        try {
            // the runtime gives a restart only the parameters passed here: without the original ones a job would fall
            // back to its defaults (the payout to the previous month instead of the month it was settling)
            var parameters = new Properties();
            var original = operator().getParameters(id);
            if (original != null) {
                parameters.putAll(original);
            }
            parameters.setProperty(RESTART_OF, Long.toString(id));
            return operator().restart(id, parameters);
        } catch (NoSuchJobExecutionException e) {
            throw BusinessException.notFound("Batch execution");
        } catch (JobExecutionNotMostRecentException e) {
            throw BusinessException.conflict("Batch execution " + id + " is not the latest of its job instance");
        } catch (JobExecutionAlreadyCompleteException e) {
            throw BusinessException.conflict("Batch execution " + id + " is COMPLETED");
        } catch (JobRestartException e) {
            throw BusinessException.conflict("Batch execution " + id + " cannot be restarted: " + e.getMessage());
        }
    }

    /**
     * Asks a running execution to stop: a chunk step stops at its next checkpoint, so a restart continues after the
     * last committed chunk. 404 when there is no such execution, 409 when it is not running.
     */
    public Execution stop(long id) {
        var execution = execution(id).orElseThrow(() -> BusinessException.notFound("Batch execution"));
        if (!execution.running()) {
            throw BusinessException.conflict("Batch execution " + id + " is " + execution.status());
        }
        try {
            awaitStartedStep(id);
            operator().stop(id);
        } catch (NoSuchJobExecutionException e) {
            throw BusinessException.notFound("Batch execution");
        } catch (JobExecutionNotRunningException e) {
            throw BusinessException.conflict("Batch execution " + id + " is not running");
        }
        return execution(id).orElseThrow(() -> BusinessException.notFound("Batch execution"));
    }

    /**
     * JBatch starts a step by writing STARTED over the step's status, so a stop that lands between the step's creation
     * and its start is lost and the step runs to its end. The stop therefore waits, briefly, until the execution's
     * latest step has started (or the execution has ended, which the stop then reports).
     */
    private void awaitStartedStep(long id) {
        long deadline = System.nanoTime() + STEP_START_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            var job = operator().getJobExecution(id).getBatchStatus();
            var latest = operator().getStepExecutions(id).stream()
                    .max(Comparator.comparingLong(StepExecution::getStepExecutionId));
            if (job != BatchStatus.STARTING && job != BatchStatus.STARTED
                    || latest.filter(s -> s.getBatchStatus() == BatchStatus.STARTED).isPresent()) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * The runtime, once the migrations made its repository's tables: opened before, Payara's repository tries its
     * own DDL, which fails on H2, and the batch runtime stays broken until a restart.
     */
    private JobOperator operator() {
        if (!migrated()) {
            throw new BusinessException(Problem.UNAVAILABLE, "Batch jobs wait for the database's migrations; "
                    + "retry shortly");
        }
        return BatchRuntime.getJobOperator();
    }
}
