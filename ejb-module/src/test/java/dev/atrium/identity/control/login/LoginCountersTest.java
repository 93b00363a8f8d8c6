package dev.atrium.identity.control.login;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.identity.control.login.SecuritySignalsTest.MutableClock;
import dev.atrium.identity.control.login.SecuritySignalsTest.RecordingAlerts;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.kv.InMemoryKeyValueStore;
import dev.atrium.platform.kv.KeyValueStoreException;

/**
 * A login's counters and times as the shared store holds them, whatever wrote them: one that is not an integer
 * fails the login as a store that does not answer does (503), never as an internal error, and never counts as no
 * failure or a fresh window.
 */
class LoginCountersTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-27T10:00:00Z"));
    private final InMemoryKeyValueStore store = new InMemoryKeyValueStore(clock);
    private final LoginGuard guard = new LoginGuard();

    LoginCountersTest() {
        guard.store = store;
        guard.clock = clock;
    }

    @ParameterizedTest
    @ValueSource(strings = {"count", "last"})
    void whenAnAccountsFailuresAreNotIntegersThenTheLoginIsRefusedAsUnavailable(String part) {
        store.set("login-fail:ada@example.org:" + part, "-0", null);

        assertThatThrownBy(() -> guard.checkNotLocked("Ada@Example.org")).isInstanceOf(KeyValueStoreException.class);
        assertThatThrownBy(() -> guard.recordFailure("ada@example.org")).isInstanceOf(KeyValueStoreException.class);
        assertThat(guard.checkNotLocked("grace@example.org")).isFalse();
    }

    @Test
    void whenAnAddressWindowsStartIsNotAnIntegerThenTheAttemptIsRefusedAsUnavailable() {
        store.set("login-ip:10.0.0.1:start", "yesterday", null);

        assertThatThrownBy(() -> guard.countAttempt("10.0.0.1")).isInstanceOf(KeyValueStoreException.class);
        guard.countAttempt("10.0.0.2");
    }

    @Test
    void whenTheHoursLoginCountIsNotAnIntegerThenCountingFailsAsUnavailable() {
        var monitor = new LoginMonitor();
        monitor.config = ConfigDefaults.of(IdentityConfig.class);
        monitor.store = store;
        monitor.clock = clock;
        monitor.alerts = new RecordingAlerts();
        monitor.config.alertsLoginMinAttempts = 20;
        monitor.config.alertsLoginMinSuccessPercent = 95;
        monitor.config.alertsLoginMaxFailuresPerAddress = 50;
        long hour = clock.instant().getEpochSecond() / 3600;
        store.set("mon:login:" + hour + ":fail", "1.0", null);

        assertThatThrownBy(() -> monitor.count(true, "10.0.0.1")).isInstanceOf(KeyValueStoreException.class);
        assertThatThrownBy(monitor::successRate).isInstanceOf(KeyValueStoreException.class);
    }
}
