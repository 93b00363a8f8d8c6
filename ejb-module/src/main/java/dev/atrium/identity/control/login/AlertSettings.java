package dev.atrium.identity.control.login;

import java.util.ArrayList;
import java.util.List;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.identity.control.IdentityConfig;

/**
 * Refuses to start with security-alert thresholds that make no sense (a zero or negative count or window, a
 * success rate outside 0 to 100 percent, a switch that is neither true nor false): such a value would page on every login or never, and either is worse
 * than a failed deployment whose message names the key and its environment variable. Text that is no number at
 * all already fails at injection. The keys and their defaults are in {@link IdentityConfig}, which the readers
 * ({@link LoginMonitor}, {@link SecuritySignals}, {@link AlertService}) share.
 */
@Startup
@Singleton
public class AlertSettings {

    public static final String COOLDOWN = "atrium.alerts.cooldown-minutes";
    public static final String LOGIN_MIN_ATTEMPTS = "atrium.alerts.login.min-attempts";
    public static final String LOGIN_MIN_SUCCESS_PERCENT = "atrium.alerts.login.min-success-percent";
    public static final String LOGIN_MAX_FAILURES = "atrium.alerts.login.max-failures-per-address";
    public static final String REFRESH_MAX = "atrium.alerts.refresh.max";
    public static final String REFRESH_WINDOW = "atrium.alerts.refresh.window-minutes";
    public static final String THEFT_WINDOW = "atrium.alerts.refresh-theft.window-minutes";
    public static final String THEFT_REVOKE = "atrium.alerts.refresh-theft.revoke";
    public static final String LOCATION_WINDOW = "atrium.alerts.location.window-minutes";
    public static final String RESET_MAX = "atrium.alerts.password-reset.max";
    public static final String RESET_WINDOW = "atrium.alerts.password-reset.window-minutes";

    /** The settings as read, in one place so the check can be tested without a container. */
    public record Values(long cooldownMinutes, long loginMinAttempts, double loginMinSuccessPercent,
                         long loginMaxFailures, long refreshMax, long refreshWindowMinutes, long theftWindowMinutes,
                         String theftRevoke, long locationWindowMinutes, long resetMax, long resetWindowMinutes) {

        public static final Values DEFAULTS = new Values(60, 20, 95, 50, 30, 10, 10, "true", 60, 5, 60);
    }

    @Inject
    @ConfigProperties
    IdentityConfig config;

    @PostConstruct
    void checkAtStart() {
        var c = config;
        check(new Values(c.alertsCooldownMinutes, c.alertsLoginMinAttempts, c.alertsLoginMinSuccessPercent,
                c.alertsLoginMaxFailuresPerAddress, c.alertsRefreshMax, c.alertsRefreshWindowMinutes,
                c.alertsRefreshTheftWindowMinutes, c.alertsRefreshTheftRevoke, c.alertsLocationWindowMinutes,
                c.alertsPasswordResetMax, c.alertsPasswordResetWindowMinutes));
    }

    /** Throws {@link IllegalStateException} naming every key whose value is out of bounds. */
    public static void check(Values v) {
        var problems = new ArrayList<String>();
        // the readers hold counts and minutes as int: anything larger would wrap around
        counted(problems, COOLDOWN, v.cooldownMinutes(), "minutes");
        counted(problems, LOGIN_MIN_ATTEMPTS, v.loginMinAttempts(), "attempts");
        double percent = v.loginMinSuccessPercent();
        if (!(percent > 0 && percent <= 100)) {
            problems.add(IdentityConfig.named(LOGIN_MIN_SUCCESS_PERCENT, percent)
                    + ", but must be a percentage above 0 and at most 100");
        }
        counted(problems, LOGIN_MAX_FAILURES, v.loginMaxFailures(), "failures");
        counted(problems, REFRESH_MAX, v.refreshMax(), "refreshes");
        counted(problems, REFRESH_WINDOW, v.refreshWindowMinutes(), "minutes");
        counted(problems, THEFT_WINDOW, v.theftWindowMinutes(), "minutes");
        String revoke = v.theftRevoke() == null ? "" : v.theftRevoke().trim();
        if (!revoke.equalsIgnoreCase("true") && !revoke.equalsIgnoreCase("false")) {
            problems.add(IdentityConfig.named(THEFT_REVOKE, "'" + revoke + "'") + ", but must be true or false");
        }
        counted(problems, LOCATION_WINDOW, v.locationWindowMinutes(), "minutes");
        counted(problems, RESET_MAX, v.resetMax(), "requests");
        counted(problems, RESET_WINDOW, v.resetWindowMinutes(), "minutes");
        if (!problems.isEmpty()) {
            throw new IllegalStateException("Refusing to start: " + String.join("; ", problems));
        }
    }

    private static void counted(List<String> problems, String key, long value, String unit) {
        if (value <= 0 || value > Integer.MAX_VALUE) {
            problems.add(IdentityConfig.named(key, value) + ", but must be a positive number of " + unit
                    + " (at most " + Integer.MAX_VALUE + ")");
        }
    }
}
