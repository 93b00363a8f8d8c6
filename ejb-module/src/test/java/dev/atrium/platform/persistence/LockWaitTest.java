package dev.atrium.platform.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.eclipse.persistence.internal.helper.ConcurrencyUtil;
import org.junit.jupiter.api.Test;

/**
 * EclipseLink 4.0 makes a thread that waits for one of its locks (an id sequence's, a cache key's) call
 * {@code Condition.await(waittime)} in a loop; with its default of 0 the wait returns at once and the loop spins on
 * the CPU for as long as the lock is held. The application's persistence unit sets a wait, so waiters park until
 * the release signals them.
 */
class LockWaitTest {

    @Test
    void whenTheApplicationsPersistenceUnitDeploysThenLockWaitersParkInsteadOfSpinning() {
        var factory = TestDatabases.entityManagers(TestDatabases.dataSource("lock-wait"));
        try {
            factory.createEntityManager().close();
            assertEquals(10, ConcurrencyUtil.SINGLETON.getAcquireWaitTime());
        } finally {
            factory.close();
        }
    }
}
