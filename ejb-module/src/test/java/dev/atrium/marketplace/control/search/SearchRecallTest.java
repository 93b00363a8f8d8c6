package dev.atrium.marketplace.control.search;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The index's approximate search finds what exact search finds: recall@10 at 10,000 agents of at least 0.95. */
class SearchRecallTest {

    @Test
    void whenTenThousandAgentsAreIndexedThenRecallAtTenIsAtLeastNinetyFivePercent() {
        var result = SearchRecall.measure(10_000, 100, Long.getLong("atrium.fuzz.seed", 20261124L));

        assertThat(result.recall()).as(result.toString()).isGreaterThanOrEqualTo(0.95);
    }
}
