package dev.atrium.platform.batch;

import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
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
import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.kv.KeyValueStoreException;

/**
 * Which batch executions are alive. An execution running here holds a lease in the shared key-value store
 * ({@code batch-lease:<execution>}, {@code atrium.batch.lease-seconds}, default 30), renewed three times a lease; a
 * process that dies stops renewing, so its executions' leases lapse and {@link BatchRecovery} restarts them. The
 * batch runtime itself cannot tell: it leaves a killed execution STARTED for ever.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ExecutionLeases {

    private static final Logger LOG = Logger.getLogger(ExecutionLeases.class.getName());
    private static final String KEY = "batch-lease:";

    /** This process, as the leases name it. */
    private final String holder = UUID.randomUUID().toString();
    private final Set<Long> held = ConcurrentHashMap.newKeySet();

    @Inject
    KeyValueStore store;

    @Inject
    @ConfigProperties
    PlatformConfig config;

    @Resource
    TimerService timers;

    @PostConstruct
    void renewing() {
        long period = Math.max(1000L, lease().toMillis() / 3);
        timers.createIntervalTimer(period, period, new TimerConfig(null, false));
    }

    public Duration lease() {
        return Duration.ofSeconds(Math.max(2, config.batchLeaseSeconds));
    }

    /** Called as an execution starts here. */
    public void hold(long execution) {
        held.add(execution);
        renew(execution);
    }

    /** Called as an execution ends here, whatever its status. */
    public void release(long execution) {
        held.remove(execution);
        try {
            store.delete(KEY + execution);
        } catch (KeyValueStoreException e) {
            LOG.warning(() -> "Batch execution " + execution + ": its lease is left to lapse: " + e.getMessage());
        }
    }

    /** Whether some process renews the execution's lease. */
    public boolean alive(long execution) {
        return held.contains(execution) || store.get(KEY + execution).isPresent();
    }

    @Timeout
    void renewAll() {
        held.forEach(this::renew);
    }

    private void renew(long execution) {
        try {
            store.set(KEY + execution, holder, lease());
        } catch (KeyValueStoreException e) {
            LOG.warning(() -> "Batch execution " + execution + ": its lease could not be renewed: " + e.getMessage());
        }
    }
}
