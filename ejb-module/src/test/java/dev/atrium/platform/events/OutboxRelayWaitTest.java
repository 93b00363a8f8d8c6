package dev.atrium.platform.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;

import org.junit.jupiter.api.Test;

/** An idle relay polls its database less and less often, up to the idle poll; one round with work makes it brisk. */
class OutboxRelayWaitTest {

    @Test
    void whenRoundsFindNothingThenTheWaitDoublesUpToTheIdlePoll() {
        var waits = new ArrayList<Long>();
        long wait = 500;
        for (int i = 0; i < 6; i++) {
            wait = OutboxRelay.nextWait(wait, 0, 500, 5000);
            waits.add(wait);
        }
        assertThat(waits).containsExactly(1000L, 2000L, 4000L, 5000L, 5000L, 5000L);
    }

    @Test
    void whenARoundSendsEventsThenTheNextWaitIsThePoll() {
        assertThat(OutboxRelay.nextWait(5000, 3, 500, 5000)).isEqualTo(500);
    }

    @Test
    void whenTheIdlePollIsBelowThePollThenThePollIsTheWait() {
        assertThat(OutboxRelay.nextWait(500, 0, 500, 100)).isEqualTo(500);
        assertThat(OutboxRelay.nextWait(500, 0, 500, 500)).isEqualTo(500);
    }
}
