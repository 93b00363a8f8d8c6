package dev.atrium.marketplace.control.runtime;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.kv.InMemoryKeyValueStore;
import dev.atrium.platform.kv.KeyValueStoreException;

/** The month's free calls and tokens as the shared store holds them: one that is not an integer is a 503, not free. */
class FreeTierCountersTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-27T10:00:00Z"), ZoneOffset.UTC);

    @ParameterizedTest
    @ValueSource(strings = {"calls", "tokens"})
    void whenAMonthsCounterIsNotAnIntegerThenTheCallIsRefusedAsUnavailable(String counter) {
        var free = new FreeTier();
        free.store = new InMemoryKeyValueStore(CLOCK);
        free.clock = CLOCK;
        free.config = ConfigDefaults.of(MarketplaceConfig.class);
        free.config.freeCallsPerMonth = 100;
        free.config.freeTokensPerMonth = 50_000;
        free.store.set("market:free:" + counter + ":7:2026-11", "0x10", null);

        assertThatThrownBy(() -> free.check(7)).isInstanceOf(KeyValueStoreException.class);
        free.check(8);
    }
}
