package dev.atrium.ai.control;

import java.time.Clock;
import java.time.Duration;
import java.util.logging.Logger;

import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.platform.kv.KeyValueStore;

/**
 * Every five minutes, files that have waited longer than {@code atrium.files.requeue-after-seconds} (600) in
 * {@code uploaded} get their parse message again: it is sent after the upload commits, and a crash between the two
 * would otherwise leave them waiting forever. With several instances each fires, and a marker in the shared store
 * lets one of them run each round.
 */
@Singleton
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class FileParseRecovery {

    private static final Logger LOG = Logger.getLogger(FileParseRecovery.class.getName());
    private static final int BATCH = 500;

    @Inject
    FileService files;

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperty(name = "atrium.files.requeue-after-seconds", defaultValue = "600")
    long requeueAfterSeconds;

    @Schedule(hour = "*", minute = "*/5", persistent = false)
    void everyFiveMinutes() {
        long round = clock.millis() / Duration.ofMinutes(5).toMillis();
        if (store.setIfAbsent("file-parse-recovery:" + round, "1", Duration.ofMinutes(10))) {
            int sent = files.requeueStale(clock.instant().minusSeconds(requeueAfterSeconds), BATCH);
            if (sent > 0) {
                LOG.warning(() -> sent + " uploaded files had waited over " + requeueAfterSeconds
                        + " s for their parse job; their messages were sent again");
            }
        }
    }
}
