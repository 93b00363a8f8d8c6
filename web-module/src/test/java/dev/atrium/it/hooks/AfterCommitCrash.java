package dev.atrium.it.hooks;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.platform.CrashPoints;
import dev.atrium.platform.error.BusinessException;

/**
 * The crash points of the test server, with {@code atrium.test.crash-after-commit=true} only: once armed, the next
 * transaction that publishes an event halts the JVM ({@link Runtime#halt}, no shutdown hooks) right after it
 * commits, before the relay can publish the event; while that halt is pending the relay holds back, so the event is
 * certainly still in the outbox. A payout job with {@code crash_after_chunks} halts inside the chunk after that
 * many; a restarted execution never does.
 */
@Alternative
@Priority(Interceptor.Priority.APPLICATION)
@ApplicationScoped
public class AfterCommitCrash extends CrashPoints {

    private static final Logger LOG = Logger.getLogger(AfterCommitCrash.class.getName());

    @Inject
    @ConfigProperty(name = "atrium.test.crash-after-commit", defaultValue = "false")
    boolean enabled;

    private final AtomicBoolean armed = new AtomicBoolean();
    private volatile boolean pending;

    public void arm() {
        if (!enabled) {
            throw BusinessException.notFound("Resource");
        }
        armed.set(true);
    }

    /** Whether this transaction is the one to crash after; disarms. */
    @Override
    public boolean haltAfterCommit() {
        if (enabled && armed.compareAndSet(true, false)) {
            pending = true;
            return true;
        }
        return false;
    }

    /** Halts once committed; a transaction that rolled back after all proves nothing, so the relay goes on. */
    @Override
    public void completed(boolean committed) {
        if (committed) {
            halt("after the commit, before the relay publishes");
        }
        pending = false;
    }

    @Override
    public boolean holdsRelay() {
        return pending;
    }

    @Override
    public void payoutChunk(int chunk, String crashAfterChunks, String restartOf) {
        if (enabled && crashAfterChunks != null && !crashAfterChunks.isBlank()
                && (restartOf == null || restartOf.isBlank()) && chunk > Integer.parseInt(crashAfterChunks)) {
            // proving exactly-once: the JVM dies inside this chunk's transaction, the earlier ones committed
            halt("inside payout chunk " + chunk);
        }
    }

    private static void halt(String where) {
        LOG.severe("atrium.test.crash-after-commit: halting " + where);
        Runtime.getRuntime().halt(137);
    }
}
