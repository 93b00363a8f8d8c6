package dev.atrium.content.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.atrium.platform.kv.InMemoryKeyValueStore;
import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.time.MovableClock;

/**
 * The version rendered article lists are filed under: it changes only once a write commits, once per transaction,
 * on every instance sharing the store, and on the writing instance even when the store cannot be reached.
 */
class ArticlesVersionTest {

    private final InMemoryKeyValueStore shared = new InMemoryKeyValueStore(new MovableClock());
    private final Transactions transactions = new Transactions();
    private ArticlesVersion here;
    private ArticlesVersion there;

    @BeforeEach
    void wire() {
        here = version(shared);
        there = version(shared);
    }

    private ArticlesVersion version(KeyValueStore store) {
        var version = new ArticlesVersion();
        version.store = store;
        version.transactions = transactions;
        return version;
    }

    @Test
    void whenAWriteCommitsThenBothInstancesSeeANewVersionOnlyThen() {
        String before = here.current().orElseThrow();
        String beforeThere = there.current().orElseThrow();
        transactions.begin();

        here.changedAfterCommit();
        assertThat(here.current()).contains(before);
        assertThat(there.current()).contains(beforeThere);

        transactions.end(Status.STATUS_COMMITTED);
        assertThat(here.current().orElseThrow()).isNotEqualTo(before);
        assertThat(there.current().orElseThrow()).isNotEqualTo(beforeThere);
    }

    @Test
    void whenTheWriteRollsBackThenTheVersionStays() {
        String before = here.current().orElseThrow();
        transactions.begin();
        here.changedAfterCommit();
        transactions.end(Status.STATUS_ROLLEDBACK);

        assertThat(here.current()).contains(before);
    }

    @Test
    void whenOneTransactionWritesManyArticlesThenTheStoreIsToldOnce() {
        transactions.begin();
        for (int i = 0; i < 100; i++) {
            here.changedAfterCommit();
        }
        assertThat(transactions.synchronizations).hasSize(1);
        transactions.end(Status.STATUS_COMMITTED);
    }

    @Test
    void whenNoTransactionIsActiveThenTheVersionChangesAtOnce() {
        String before = there.current().orElseThrow();
        here.changedAfterCommit();

        assertThat(there.current().orElseThrow()).isNotEqualTo(before);
    }

    @Test
    void whenTheStoreCannotBeReachedThenNoVersionIsGivenAndTheWritersOwnStillChanges() {
        var down = new boolean[1];
        var behind = new InMemoryKeyValueStore(new MovableClock());
        var failing = (KeyValueStore) Proxy.newProxyInstance(KeyValueStore.class.getClassLoader(),
                new Class<?>[] {KeyValueStore.class}, (proxy, method, args) -> {
                    if (down[0]) {
                        throw new IllegalStateException("store down");
                    }
                    try {
                        return method.invoke(behind, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        var writer = version(failing);
        String before = writer.current().orElseThrow();

        down[0] = true;
        assertThat(writer.current()).isEmpty();
        writer.changedAfterCommit();
        down[0] = false;

        assertThat(writer.current().orElseThrow()).isNotEqualTo(before);
    }

    /** One transaction at a time, ended by the test with the status it names. */
    private static final class Transactions implements TransactionSynchronizationRegistry {
        private final List<Synchronization> synchronizations = new ArrayList<>();
        private final Map<Object, Object> resources = new HashMap<>();
        private boolean active;

        void begin() {
            active = true;
        }

        void end(int status) {
            active = false;
            synchronizations.forEach(s -> s.afterCompletion(status));
            synchronizations.clear();
            resources.clear();
        }

        @Override
        public Object getTransactionKey() {
            return active ? this : null;
        }

        @Override
        public void putResource(Object key, Object value) {
            resources.put(key, value);
        }

        @Override
        public Object getResource(Object key) {
            return resources.get(key);
        }

        @Override
        public void registerInterposedSynchronization(Synchronization sync) {
            synchronizations.add(sync);
        }

        @Override
        public int getTransactionStatus() {
            return active ? Status.STATUS_ACTIVE : Status.STATUS_NO_TRANSACTION;
        }

        @Override
        public void setRollbackOnly() {
        }

        @Override
        public boolean getRollbackOnly() {
            return false;
        }
    }
}
