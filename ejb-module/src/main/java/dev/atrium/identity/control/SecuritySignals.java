package dev.atrium.identity.control;

import java.time.Clock;
import java.time.Duration;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.platform.kv.KeyValueStore;

/**
 * The signals of issue 17 beyond the login figures of {@link LoginMonitor}: refresh frequency per user, a change
 * of location between consecutive logins of one user, and password-reset requests per account and per address.
 * Counters live in the shared store in fixed windows of the injectable clock, so all instances see one picture;
 * {@link AlertService} keeps each episode to one alert.
 */
@ApplicationScoped
public class SecuritySignals {

    private static final Logger LOG = Logger.getLogger(SecuritySignals.class.getName());

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    @Inject
    AlertService alerts;

    @Inject
    NetworkLocator locator;

    @Inject
    @ConfigProperty(name = "atrium.alerts.refresh.max", defaultValue = "30")
    int refreshMax;

    @Inject
    @ConfigProperty(name = "atrium.alerts.refresh.window-minutes", defaultValue = "10")
    int refreshWindowMinutes;

    @Inject
    @ConfigProperty(name = "atrium.alerts.location.window-minutes", defaultValue = "60")
    int locationWindowMinutes;

    @Inject
    @ConfigProperty(name = "atrium.alerts.password-reset.max", defaultValue = "5")
    int resetMax;

    @Inject
    @ConfigProperty(name = "atrium.alerts.password-reset.window-minutes", defaultValue = "60")
    int resetWindowMinutes;

    /** A refresh of this user's access token. */
    public void refreshed(long userId) {
        if (count("sig:refresh:" + userId, refreshWindowMinutes) > refreshMax) {
            alert("refresh_frequency", "user:" + userId, "more than " + refreshMax + " token refreshes within "
                    + refreshWindowMinutes + " minutes by user " + userId);
        }
    }

    /** A successful login of this user from this address. */
    public void loggedIn(long userId, String address) {
        var location = locator.locate(address);
        if (location.isEmpty()) {
            return;
        }
        long now = clock.instant().getEpochSecond();
        String key = "sig:location:" + userId;
        var previous = store.get(key);
        store.set(key, location.get() + "|" + now, Duration.ofMinutes(2L * locationWindowMinutes));
        if (previous.isEmpty()) {
            return;
        }
        int bar = previous.get().lastIndexOf('|');
        String before = previous.get().substring(0, bar);
        long then = Long.parseLong(previous.get().substring(bar + 1));
        if (!before.equals(location.get()) && now - then <= locationWindowMinutes * 60L) {
            alert("location_change", "user:" + userId, "login of user " + userId + " from " + location.get()
                    + " within " + locationWindowMinutes + " minutes of a login from " + before);
        }
    }

    /** A password-reset request from this address, for this account when it exists ({@code null} otherwise). */
    public void resetRequested(Long userId, String address) {
        if (!address.isEmpty() && count("sig:pwreset:address:" + address, resetWindowMinutes) > resetMax) {
            alert("password_reset_frequency", "address:" + address, "more than " + resetMax
                    + " password-reset requests within " + resetWindowMinutes + " minutes from " + address);
        }
        if (userId != null && count("sig:pwreset:user:" + userId, resetWindowMinutes) > resetMax) {
            alert("password_reset_frequency", "user:" + userId, "more than " + resetMax
                    + " password-reset requests within " + resetWindowMinutes + " minutes for user " + userId);
        }
    }

    /** Counts in fixed windows of the injectable clock, so tests can move from one window to the next. */
    private long count(String key, int windowMinutes) {
        long window = Math.max(60L, windowMinutes * 60L);
        long bucket = clock.instant().getEpochSecond() / window;
        return store.increment(key + ":" + bucket, Duration.ofSeconds(2 * window));
    }

    /** An alert must never fail the request that noticed it. */
    private void alert(String kind, String subject, String details) {
        try {
            alerts.raise(kind, subject, details);
        } catch (RuntimeException failed) {
            LOG.warning(() -> "SECURITY ALERT " + kind + " could not be recorded: " + failed);
        }
    }
}
