package dev.atrium.identity.control.login;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.identity.control.login.SecuritySignalsTest.MutableClock;
import dev.atrium.identity.control.login.SecuritySignalsTest.RecordingAlerts;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.kv.InMemoryKeyValueStore;

class LoginMonitorTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-23T10:00:00Z"));
    private final RecordingAlerts alerts = new RecordingAlerts();
    private final LoginMonitor monitor = new LoginMonitor();

    @BeforeEach
    void setUp() {
        monitor.config = ConfigDefaults.of(IdentityConfig.class);
        monitor.store = new InMemoryKeyValueStore(clock);
        monitor.clock = clock;
        monitor.alerts = alerts;
    }

    /** The defaults (20, 95, 50) and configured values: the same logins alert or not as the thresholds say. */
    @ParameterizedTest(name = "[{index}] {0} attempts min, {1} % min, {2} failures max: {3} ok + {4} failed")
    @CsvSource({
            // min attempts, min success %, max failures per address, successes, failures, rate alert, address alert
            "20, 95,   50, 18,  1, false, false",
            "20, 95,   50, 18,  2, true,  false",
            "20, 95,   50, 19,  1, false, false",
            "20, 95,   50, 0,  50, true,  false",
            "20, 95,   50, 0,  51, true,  true",
            "10, 95,   50, 8,   1, false, false",
            "10, 95,   50, 8,   2, true,  false",
            "20, 80,   50, 16,  4, false, false",
            "20, 80,   50, 15,  5, true,  false",
            "20, 99.5, 50, 199, 1, false, false",
            "20, 99.5, 50, 198, 2, true,  false",
            "20, 100,  50, 19,  1, true,  false",
            "1,  95,    3, 0,   3, true,  false",
            "1,  95,    3, 0,   4, true,  true",
            "500, 95,   3, 0,   4, false, true"})
    void whenThresholdsAreConfiguredThenTheyDecideWhichSignalIsRaised(int minAttempts, double percent,
            int maxFailures, int successes, int failures, boolean rateAlert, boolean addressAlert) {
        monitor.config.alertsLoginMinAttempts = minAttempts;
        monitor.config.alertsLoginMinSuccessPercent = percent;
        monitor.config.alertsLoginMaxFailuresPerAddress = maxFailures;
        // successes first, so the rate is judged on the whole set when the last failure arrives
        for (int i = 0; i < successes; i++) {
            monitor.count(true, "10.1.0." + (i % 250 + 1));
        }
        for (int i = 0; i < failures; i++) {
            monitor.count(false, "10.9.9.9");
        }
        assertThat(alerts.raised.contains("success_rate all")).as("rate alert %s", alerts.raised)
                .isEqualTo(rateAlert);
        assertThat(alerts.raised.contains("failures_per_address address:10.9.9.9")).as("address alert")
                .isEqualTo(addressAlert);
    }
}
