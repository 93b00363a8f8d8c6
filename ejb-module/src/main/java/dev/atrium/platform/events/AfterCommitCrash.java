package dev.atrium.platform.events;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.platform.error.BusinessException;

/**
 * A test hook that proves the outbox survives a crash: once armed, the next transaction that publishes an event
 * halts the JVM ({@link Runtime#halt}, no shutdown hooks) right after it commits, before the relay can publish the
 * event. It exists only with {@code atrium.test.crash-after-commit=true}, never in production; arming it elsewhere
 * is "not found". While a crash is pending the relay holds back, so the event is certainly still in the outbox.
 */
@ApplicationScoped
public class AfterCommitCrash {

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
    boolean take() {
        if (enabled && armed.compareAndSet(true, false)) {
            pending = true;
            return true;
        }
        return false;
    }

    boolean holdsRelay() {
        return pending;
    }

    void crashNow() {
        LOG.severe("atrium.test.crash-after-commit: halting after the commit, before the relay publishes");
        Runtime.getRuntime().halt(137);
    }

    /** The transaction rolled back after all: nothing to prove, let the relay go on. */
    void release() {
        pending = false;
    }
}
