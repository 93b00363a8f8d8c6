package dev.atrium.platform;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * Where a test deployment halts the JVM, to prove that work survives a crash. In the product nothing halts: every
 * point does nothing; the integration tests deploy an alternative of this bean.
 */
@ApplicationScoped
public class CrashPoints {

    /** Inside a transaction that publishes an event: whether to halt right after it commits. */
    public boolean haltAfterCommit() {
        return false;
    }

    /** That transaction has ended, committed or not. */
    public void completed(boolean committed) {
    }

    /** Whether the outbox relay waits, so that an event whose halt is due stays in the outbox. */
    public boolean holdsRelay() {
        return false;
    }

    /** Inside the transaction of a payout chunk (counted from 1), with the job's parameters about crashing. */
    public void payoutChunk(int chunk, String crashAfterChunks, String restartOf) {
    }
}
