package dev.atrium.platform.messaging;

import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * How the application announces events: a text message to a queue (one consumer gets it) or to a topic (every
 * instance gets it). Inside a JTA transaction the message leaves only after the transaction commits, and not
 * at all if it rolls back, so a consumer never sees an id whose row is not yet, or never, in the database.
 * Outside a transaction it leaves at once. Bodies carry ids, not whole objects: consumers load current state.
 */
@ApplicationScoped
public class Messages {

    private static final Logger LOG = Logger.getLogger(Messages.class.getName());

    @Inject
    MessagingRuntime runtime;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;

    public void send(String queue, String body) {
        var broker = runtime.broker();
        afterCommit(() -> broker.send(queue, body), "queue " + queue);
    }

    public void publish(String topic, String body) {
        var broker = runtime.broker();
        afterCommit(() -> broker.publish(topic, body), "topic " + topic);
    }

    void afterCommit(Runnable send, String destination) {
        int status = transactions.getTransactionStatus();
        if (status == Status.STATUS_NO_TRANSACTION) {
            send.run();
        } else if (status == Status.STATUS_MARKED_ROLLBACK) {
            LOG.fine(() -> "Not sending to " + destination + ": the transaction will roll back");
        } else {
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int outcome) {
                    if (outcome != Status.STATUS_COMMITTED) {
                        return;
                    }
                    try {
                        send.run();
                    } catch (RuntimeException e) {
                        // the commit stands; nothing can be thrown to the caller any more
                        LOG.log(Level.SEVERE, e, () -> "Committed, but could not send to " + destination);
                    }
                }
            });
        }
    }
}
