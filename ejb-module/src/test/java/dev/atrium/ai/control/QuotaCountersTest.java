package dev.atrium.ai.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.atrium.ai.control.models.ModelDefinition;
import dev.atrium.ai.control.models.OneModelCatalog;
import dev.atrium.ai.entity.Tier;
import dev.atrium.platform.kv.InMemoryKeyValueStore;
import dev.atrium.platform.kv.KeyValueStoreException;

/**
 * The day's counters as the shared store holds them, whatever wrote them: a counter that is not an integer refuses
 * the turn as a store that does not answer does (503), not with an internal error, and never as an unused quota.
 */
class QuotaCountersTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-27T10:00:00Z"), ZoneOffset.UTC);
    private static final ModelDefinition MODEL = new ModelDefinition("echo", "echo", "echo", BigDecimal.ZERO,
            BigDecimal.ZERO, Set.of(Tier.FREE, Tier.PRO, Tier.ENTERPRISE), 50, 0.1);

    private final InMemoryKeyValueStore store = new InMemoryKeyValueStore(CLOCK);
    private final QuotaService quotas = new QuotaService();

    @BeforeEach
    void wire() {
        quotas.store = store;
        quotas.clock = CLOCK;
        quotas.catalog = new OneModelCatalog(MODEL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tokens", "requests"})
    void whenADaysCounterIsNotAnIntegerThenTheTurnIsRefusedAsUnavailable(String counter) {
        store.set("quota:" + counter + ":7:2026-11-27", "lots", null);

        assertThatThrownBy(() -> quotas.admit(7, Tier.PRO, "echo")).isInstanceOf(KeyValueStoreException.class);
        assertThatThrownBy(() -> quotas.today(7, Tier.PRO)).isInstanceOf(KeyValueStoreException.class);
        assertThat(store.get("quota:" + counter + ":7:2026-11-27")).contains("lots");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tokens", "requests"})
    void whenAnotherUsersCounterIsNotAnIntegerThenThisUsersTurnIsAdmitted(String counter) {
        store.set("quota:" + counter + ":8:2026-11-27", "lots", null);

        assertThat(quotas.admit(7, Tier.PRO, "echo").remainingRequests()).isEqualTo(Tier.PRO.dailyRequests() - 1);
    }
}
