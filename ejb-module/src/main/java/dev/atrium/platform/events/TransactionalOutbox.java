package dev.atrium.platform.events;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import dev.atrium.platform.CrashPoints;

/**
 * {@link ApplicationEvents} on the transactional outbox: the event becomes a row of the caller's transaction and is
 * fired to in-transaction CDI observers; once the transaction commits, this instance's relay is woken to publish
 * it. Without a transaction there is nothing to be atomic with, so that is a programming error.
 */
@ApplicationScoped
public class TransactionalOutbox implements ApplicationEvents {

    @EJB
    OutboxStore store;

    @Inject
    Event<ApplicationEvent> observers;

    @Inject
    RelaySignal relay;

    @Inject
    CrashPoints crash;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;

    @Override
    public void publish(ApplicationEvent event) {
        if (transactions.getTransactionStatus() != Status.STATUS_ACTIVE) {
            throw new IllegalStateException("Events are published inside an active transaction: " + event.type());
        }
        store.append(event);
        observers.fire(event);
        boolean crashAfterCommit = crash.haltAfterCommit();
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (crashAfterCommit) {
                    crash.completed(status == Status.STATUS_COMMITTED);
                } else if (status == Status.STATUS_COMMITTED) {
                    relay.wake();
                }
            }
        });
    }
}
