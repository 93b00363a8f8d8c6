package dev.atrium.identity.control.login;

import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.atrium.identity.control.login.AlertSettings.Values;

class AlertSettingsTest {

    @Test
    void whenTheDefaultsOrSmallPositiveValuesAreUsedThenTheyPass() {
        assertThatNoException().isThrownBy(() -> AlertSettings.check(Values.DEFAULTS));
        assertThatNoException().isThrownBy(() -> AlertSettings.check(new Values(1, 1, 0.1, 1, 1, 1, 1, "false", 1, 1, 1)));
        assertThatNoException().isThrownBy(() -> AlertSettings.check(new Values(1, 1, 100, 1, 1, 1, 1, " TRUE ", 1,
                1, Integer.MAX_VALUE)));
    }

    /** One nonsense value at a time (by position in {@link Values}): the message names its key and env name. */
    @ParameterizedTest
    @CsvSource({
            "0, 0, atrium.alerts.cooldown-minutes, ATRIUM_ALERTS_COOLDOWN_MINUTES",
            "1, -1, atrium.alerts.login.min-attempts, ATRIUM_ALERTS_LOGIN_MIN_ATTEMPTS",
            "2, 0, atrium.alerts.login.min-success-percent, ATRIUM_ALERTS_LOGIN_MIN_SUCCESS_PERCENT",
            "2, -5, atrium.alerts.login.min-success-percent, ATRIUM_ALERTS_LOGIN_MIN_SUCCESS_PERCENT",
            "2, 100.01, atrium.alerts.login.min-success-percent, ATRIUM_ALERTS_LOGIN_MIN_SUCCESS_PERCENT",
            "2, NaN, atrium.alerts.login.min-success-percent, ATRIUM_ALERTS_LOGIN_MIN_SUCCESS_PERCENT",
            "2, Infinity, atrium.alerts.login.min-success-percent, ATRIUM_ALERTS_LOGIN_MIN_SUCCESS_PERCENT",
            "3, 0, atrium.alerts.login.max-failures-per-address, ATRIUM_ALERTS_LOGIN_MAX_FAILURES_PER_ADDRESS",
            "4, 0, atrium.alerts.refresh.max, ATRIUM_ALERTS_REFRESH_MAX",
            "5, -10, atrium.alerts.refresh.window-minutes, ATRIUM_ALERTS_REFRESH_WINDOW_MINUTES",
            "6, 0, atrium.alerts.refresh-theft.window-minutes, ATRIUM_ALERTS_REFRESH_THEFT_WINDOW_MINUTES",
            "6, 2147483648, atrium.alerts.refresh-theft.window-minutes, ATRIUM_ALERTS_REFRESH_THEFT_WINDOW_MINUTES",
            "7, 0, atrium.alerts.location.window-minutes, ATRIUM_ALERTS_LOCATION_WINDOW_MINUTES",
            "8, -1, atrium.alerts.password-reset.max, ATRIUM_ALERTS_PASSWORD_RESET_MAX",
            "9, 0, atrium.alerts.password-reset.window-minutes, ATRIUM_ALERTS_PASSWORD_RESET_WINDOW_MINUTES"})
    void whenAValueMakesNoSenseThenTheStartIsRefusedNamingItsKey(int position, double value, String key,
            String env) {
        double[] v = {60, 20, 95, 50, 30, 10, 10, 60, 5, 60};
        v[position] = value;
        var values = new Values((long) v[0], (long) v[1], v[2], (long) v[3], (long) v[4], (long) v[5], (long) v[6],
                "true", (long) v[7], (long) v[8], (long) v[9]);
        assertThatThrownBy(() -> AlertSettings.check(values))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Refusing to start: " + key + " (" + env + ") is ")
                .hasMessageNotContaining(";");
    }

    @ParameterizedTest
    @CsvSource(nullValues = "null", value = {"''", "null", "ture", "1", "on", "yes", "'true,false'"})
    void whenTheRevocationSwitchIsNeitherTrueNorFalseThenTheStartIsRefused(String revoke) {
        var d = Values.DEFAULTS;
        var values = new Values(d.cooldownMinutes(), d.loginMinAttempts(), d.loginMinSuccessPercent(),
                d.loginMaxFailures(), d.refreshMax(), d.refreshWindowMinutes(), d.theftWindowMinutes(), revoke,
                d.locationWindowMinutes(), d.resetMax(), d.resetWindowMinutes());
        assertThatThrownBy(() -> AlertSettings.check(values))
                .hasMessageStartingWith("Refusing to start: " + AlertSettings.THEFT_REVOKE)
                .hasMessageEndingWith("must be true or false");
    }

    @Test
    void whenSeveralValuesMakeNoSenseThenEachIsNamed() {
        assertThatThrownBy(() -> AlertSettings.check(new Values(0, 20, 95, 0, 30, 10, 0, "yes", 60, 5, 60)))
                .hasMessageContaining(AlertSettings.COOLDOWN)
                .hasMessageContaining(AlertSettings.LOGIN_MAX_FAILURES)
                .hasMessageContaining(AlertSettings.THEFT_WINDOW)
                .hasMessageContaining(AlertSettings.THEFT_REVOKE + " (ATRIUM_ALERTS_REFRESH_THEFT_REVOKE) is 'yes'")
                .hasMessageNotContaining(AlertSettings.LOGIN_MIN_ATTEMPTS);
    }
}
