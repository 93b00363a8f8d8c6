package dev.atrium.platform.batch;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.platform.PlatformConfig;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.kv.KeyValueStoreException;
import dev.atrium.platform.persistence.DatabaseMigrations;

/**
 * Restarts the executions a dead process left behind. Once a lease (see {@link ExecutionLeases}) each instance looks
 * at the latest executions of the jobs in {@code atrium.batch.recover-jobs}: one the runtime still shows under way
 * whose lease lapsed is restarted from its last checkpoint, by the one instance that claims it. The jobs named
 * declare the {@code executionLease} listener, or they would look dead while running.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class BatchRecovery {

    private static final Logger LOG = Logger.getLogger(BatchRecovery.class.getName());
    /** How many of a job's latest instances are looked at. */
    private static final int INSTANCES = 20;

    @Inject
    BatchJobs jobs;

    @EJB
    ExecutionLeases leases;

    @EJB
    DatabaseMigrations migrations;

    @Inject
    KeyValueStore store;

    @Inject
    @ConfigProperties
    PlatformConfig config;

    @Resource
    TimerService timers;

    @PostConstruct
    void scheduled() {
        // the migrations first: @DependsOn names a bean of this module only, and in the EAR they are ejb-module's; a
        // call initialises the start-up singleton first, in the WAR and the EAR alike
        migrations.schemaVersion();
        long period = leases.lease().toMillis();
        timers.createIntervalTimer(period, period, new TimerConfig(null, false));
    }

    @Timeout
    void tick() {
        try {
            recover();
        } catch (KeyValueStoreException e) {
            LOG.warning(() -> "Batch recovery skipped: the key-value store is unavailable: " + e.getMessage());
        }
    }

    /** Restarts what lies dead; answers the new executions. */
    public List<Long> recover() {
        var restarted = new ArrayList<Long>();
        for (String job : config.batchRecoverJobs.split(",")) {
            if (job.isBlank()) {
                continue;
            }
            var seen = new HashSet<Long>();
            for (var execution : jobs.executions(job.strip(), INSTANCES)) {
                // only the latest execution of an instance can be restarted
                if (!seen.add(execution.instanceId()) || !dead(execution)) {
                    continue;
                }
                if (!store.setIfAbsent("batch-restart:" + execution.id(), "1", Duration.ofDays(1))) {
                    continue;
                }
                try {
                    long id = jobs.restart(execution.id());
                    restarted.add(id);
                    LOG.warning(() -> "Batch execution " + execution.id() + " of " + job + " was left " +
                            execution.status() + " by a process that died; restarted from its checkpoint as " + id);
                } catch (BusinessException e) {
                    LOG.warning(() -> "Batch execution " + execution.id() + " of " + job + " lies dead and could "
                            + "not be restarted: " + e.getMessage());
                }
            }
        }
        return restarted;
    }

    private boolean dead(BatchJobs.Execution execution) {
        return execution.running() && dead(execution, leases.alive(execution.id()), Instant.now(), leases.lease());
    }

    /**
     * Whether an execution shown under way is dead: nobody renews its lease, and it is older than a lease, since
     * the lease is taken as the job begins and a younger execution may not have taken it yet. Wall-clock time, as
     * the leases' expiry is.
     */
    static boolean dead(BatchJobs.Execution execution, boolean leased, Instant now, Duration lease) {
        Instant created = execution.createdAt();
        return execution.running() && !leased && created != null && !created.isAfter(now.minus(lease));
    }
}
