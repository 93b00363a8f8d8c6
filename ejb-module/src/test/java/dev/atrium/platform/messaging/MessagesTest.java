package dev.atrium.platform.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MessagesTest {

    private final FakeTransactions transactions = new FakeTransactions();
    private final AtomicInteger sent = new AtomicInteger();
    private final Messages messages = new Messages();

    @BeforeEach
    void wire() {
        messages.transactions = transactions;
    }

    @Test
    void whenNoTransactionIsActiveThenMessageLeavesAtOnce() {
        transactions.status = Status.STATUS_NO_TRANSACTION;

        messages.afterCommit(sent::incrementAndGet, "queue q");

        assertThat(sent).hasValue(1);
        assertThat(transactions.registered).isEmpty();
    }

    @Test
    void whenTransactionCommitsThenMessageLeavesOnlyAfterwards() {
        transactions.status = Status.STATUS_ACTIVE;

        messages.afterCommit(sent::incrementAndGet, "queue q");
        assertThat(sent).hasValue(0);

        transactions.complete(Status.STATUS_COMMITTED);
        assertThat(sent).hasValue(1);
    }

    @Test
    void whenTransactionRollsBackThenMessageNeverLeaves() {
        transactions.status = Status.STATUS_ACTIVE;

        messages.afterCommit(sent::incrementAndGet, "queue q");
        transactions.complete(Status.STATUS_ROLLEDBACK);

        assertThat(sent).hasValue(0);
    }

    @Test
    void whenTransactionIsMarkedForRollbackThenNothingIsRegisteredOrSent() {
        transactions.status = Status.STATUS_MARKED_ROLLBACK;

        messages.afterCommit(sent::incrementAndGet, "queue q");

        assertThat(sent).hasValue(0);
        assertThat(transactions.registered).isEmpty();
    }

    @Test
    void whenSendingFailsAfterCommitThenCommitIsNotDisturbed() {
        transactions.status = Status.STATUS_ACTIVE;

        messages.afterCommit(() -> {
            sent.incrementAndGet();
            throw new MessagingException("broker down", null);
        }, "queue q");

        assertThatNoException().isThrownBy(() -> transactions.complete(Status.STATUS_COMMITTED));
        assertThat(sent).as("the send was tried after the commit").hasValue(1);
    }

    /** Just enough of a transaction manager: a status, and the synchronizations it would call. */
    private static final class FakeTransactions implements TransactionSynchronizationRegistry {

        int status = Status.STATUS_NO_TRANSACTION;
        final List<Synchronization> registered = new ArrayList<>();

        void complete(int outcome) {
            registered.forEach(Synchronization::beforeCompletion);
            status = outcome;
            registered.forEach(sync -> sync.afterCompletion(outcome));
        }

        @Override
        public int getTransactionStatus() {
            return status;
        }

        @Override
        public void registerInterposedSynchronization(Synchronization sync) {
            registered.add(sync);
        }

        @Override
        public Object getTransactionKey() {
            return status == Status.STATUS_NO_TRANSACTION ? null : this;
        }

        @Override
        public void putResource(Object key, Object value) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Object getResource(Object key) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void setRollbackOnly() {
            status = Status.STATUS_MARKED_ROLLBACK;
        }

        @Override
        public boolean getRollbackOnly() {
            return status == Status.STATUS_MARKED_ROLLBACK;
        }
    }
}
