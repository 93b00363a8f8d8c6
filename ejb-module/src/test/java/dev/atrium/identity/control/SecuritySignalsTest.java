package dev.atrium.identity.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.atrium.identity.entity.SecurityAlert;
import dev.atrium.platform.kv.InMemoryKeyValueStore;

class SecuritySignalsTest {

    /** Records what was raised; the once-per-episode rule is AlertService's and is proven by SecurityAlertsIT. */
    static final class RecordingAlerts extends AlertService {
        final List<String> raised = new ArrayList<>();

        @Override
        public Optional<SecurityAlert> raise(String kind, String subject, String details) {
            raised.add(kind + " " + subject);
            return Optional.empty();
        }
    }

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-23T10:00:00Z"));
    private final RecordingAlerts alerts = new RecordingAlerts();
    private final SecuritySignals signals = new SecuritySignals();

    @BeforeEach
    void setUp() {
        signals.store = new InMemoryKeyValueStore(clock);
        signals.clock = clock;
        signals.alerts = alerts;
        signals.locator = new PrefixNetworkLocator();
        signals.refreshMax = 30;
        signals.refreshWindowMinutes = 10;
        signals.locationWindowMinutes = 60;
        signals.resetMax = 5;
        signals.resetWindowMinutes = 60;
    }

    @Test
    void whenAUserRefreshesMoreThanTheMaximumInAWindowThenTheSignalIsRaised() {
        for (int i = 0; i < 30; i++) {
            signals.refreshed(7);
        }
        assertThat(alerts.raised).isEmpty();
        signals.refreshed(7);
        assertThat(alerts.raised).containsExactly("refresh_frequency user:7");
    }

    @Test
    void whenRefreshesAreSpreadOverWindowsThenNoSignal() {
        for (int i = 0; i < 60; i++) {
            signals.refreshed(7);
            clock.advance(Duration.ofSeconds(20));
        }
        assertThat(alerts.raised).isEmpty();
    }

    @Test
    void whenAUserLogsInFromAnotherPrefixWithinTheWindowThenTheSignalIsRaised() {
        signals.loggedIn(7, "10.1.2.3");
        clock.advance(Duration.ofMinutes(5));
        signals.loggedIn(7, "10.1.9.9");
        assertThat(alerts.raised).isEmpty();
        clock.advance(Duration.ofMinutes(5));
        signals.loggedIn(7, "10.2.0.1");
        assertThat(alerts.raised).containsExactly("location_change user:7");
    }

    @Test
    void whenTheOtherPrefixComesAfterTheWindowThenNoSignal() {
        signals.loggedIn(7, "2001:db8:1::1");
        clock.advance(Duration.ofMinutes(61));
        signals.loggedIn(7, "2001:db8:2::1");
        signals.loggedIn(8, "unknown");
        assertThat(alerts.raised).isEmpty();
    }

    @Test
    void whenResetsFloodFromOneAddressOrForOneAccountThenBothSignalsAreRaised() {
        for (int i = 0; i < 6; i++) {
            signals.resetRequested(null, "10.9.9.9");
        }
        assertThat(alerts.raised).containsExactly("password_reset_frequency address:10.9.9.9");
        alerts.raised.clear();
        for (int i = 0; i < 6; i++) {
            signals.resetRequested(7L, "10.8." + i + ".1");
        }
        assertThat(alerts.raised).containsExactly("password_reset_frequency user:7");
    }

    static final class MutableClock extends java.time.Clock {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public java.time.Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
