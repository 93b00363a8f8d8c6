package dev.atrium.it;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link MoneyProperty} on one instance. {@code -Datrium.fuzz.seed} replays a run, {@code -Datrium.fuzz.rounds} sets
 * its number of calls; the resilience suite runs it over two instances (TwoInstancesIT).
 */
@ExtendWith(AtriumServer.class)
class MoneyPropertyIT {

    @Test
    void whenRandomConcurrentCallsRefusalsAndRefundsMixThenNoMoneyIsCreatedOrLost() throws Exception {
        MoneyProperty.check(List.of(AtriumServer.get().baseUrl()), Long.getLong("atrium.fuzz.seed", System.nanoTime()),
                Integer.getInteger("atrium.fuzz.rounds", 120));
    }
}
