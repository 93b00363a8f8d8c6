package dev.atrium.platform.persistence;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/** Work that must see only committed data: run once the current transaction commits, or at once outside one. */
public final class AfterCommit {

    private AfterCommit() {
    }

    /** Runs {@code work} after the current transaction commits (never after a rollback); at once without one. */
    public static void run(TransactionSynchronizationRegistry transactions, Runnable work) {
        if (transactions == null || transactions.getTransactionStatus() != Status.STATUS_ACTIVE) {
            work.run();
            return;
        }
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
                // nothing before: the work waits for the outcome
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    work.run();
                }
            }
        });
    }
}
