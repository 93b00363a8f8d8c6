package dev.atrium.identity.control.login;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.logging.Logger;
import java.util.regex.Pattern;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.platform.kv.KeyValueStore;

/**
 * The signals of issue 17 beyond the login figures of {@link LoginMonitor}: refresh frequency per user, one refresh
 * token used from two places at once, a change of location between consecutive logins of one user, and
 * password-reset requests per account and per address. Counters and sightings live in the shared store, timed by
 * the injectable clock, so all instances see one picture; {@link AlertService} keeps each episode to one alert.
 * {@link AlertSettings} refuses to start with thresholds that make no sense.
 */
@ApplicationScoped
public class SecuritySignals {

    private static final Logger LOG = Logger.getLogger(SecuritySignals.class.getName());
    /** Epoch seconds as this class writes them. */
    private static final Pattern SECONDS = Pattern.compile("0|[1-9][0-9]{0,17}");

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    @EJB
    AlertService alerts;

    @Inject
    NetworkLocator locator;

    @Inject
    @ConfigProperties
    IdentityConfig config;

    /**
     * A refresh of this user's access token with the refresh token {@code tokenId} (its {@code jti}, never the
     * token) from {@code address}. Counts the user's refreshes, and compares the place (the {@link NetworkLocator}'s
     * answer: the /16 or /48 network) with the token's last refresh: another place within
     * {@code atrium.alerts.refresh-theft.window-minutes} of it is the classic sign of a stolen refresh token and
     * raises {@code refresh_token_two_addresses}. Answers {@code true} when the token must then be revoked
     * ({@code atrium.alerts.refresh-theft.revoke}), so that neither party can refresh with it again.
     */
    public boolean refreshed(long userId, String tokenId, String address) {
        var place = locator.locate(address);
        long theftWindowMinutes = config.alertsRefreshTheftWindowMinutes;
        String countKey = countKey("sig:refresh:" + userId, config.alertsRefreshWindowMinutes);
        Duration countTtl = countTtl(config.alertsRefreshWindowMinutes);
        if (place.isEmpty() || tokenId == null || tokenId.isEmpty()) {
            frequent(userId, store.increment(countKey, countTtl));
            return false;
        }
        var here = new Sighting(place.get(), address, clock.instant().getEpochSecond());
        // counted, read and written in one round trip; a token revoked below keeps no use, whatever place is stored
        var seen = store.incrementAndSwap(countKey, countTtl, "sig:refresh-place:" + tokenId, here.encode(),
                Duration.ofMinutes(2L * theftWindowMinutes));
        frequent(userId, seen.count());
        var before = seen.replaced().flatMap(Sighting::parse);
        if (before.isPresent() && here.elsewhereWithin(before.get(), theftWindowMinutes * 60L)) {
            var last = before.get();
            alert("refresh_token_two_addresses", "user:" + userId, "refresh token of user " + userId
                    + " used from " + last.address() + " (" + last.place() + ") and " + (here.at() - last.at())
                    + " seconds later from " + address + " (" + here.place() + "), within "
                    + theftWindowMinutes + " minutes; " + (theftRevokes()
                            ? "the refresh token was revoked: both parties must log in again"
                            : "the refresh token was not revoked (" + AlertSettings.THEFT_REVOKE + " is false)"));
            if (theftRevokes()) {
                return true;
            }
        }
        return false;
    }

    private void frequent(long userId, long refreshes) {
        long refreshMax = config.alertsRefreshMax;
        if (refreshes > refreshMax) {
            alert("refresh_frequency", "user:" + userId, "more than " + refreshMax + " token refreshes within "
                    + config.alertsRefreshWindowMinutes + " minutes by user " + userId);
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
        // read and replaced in one round trip
        long locationWindowMinutes = config.alertsLocationWindowMinutes;
        var previous = store.getAndSet(key, location.get() + "|" + now, Duration.ofMinutes(2L * locationWindowMinutes));
        // an entry this class did not write counts as no previous login, rather than failing the login
        int bar = previous.map(p -> p.lastIndexOf('|')).orElse(-1);
        if (bar <= 0 || !SECONDS.matcher(previous.get().substring(bar + 1)).matches()) {
            return;
        }
        String before = previous.get().substring(0, bar);
        long then = Long.parseLong(previous.get().substring(bar + 1));
        if (!before.equals(location.get()) && now - then <= locationWindowMinutes * 60L) {
            alert("location_change", "user:" + userId, "login of user " + userId + " from " + location.get()
                    + " within " + locationWindowMinutes + " minutes of a login from " + before);
        }
    }

    /** A password-reset request from this address, for this account when it exists ({@code null} otherwise). */
    public void resetRequested(Long userId, String address) {
        long resetMax = config.alertsPasswordResetMax;
        long resetWindowMinutes = config.alertsPasswordResetWindowMinutes;
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
    private long count(String key, long windowMinutes) {
        return store.increment(countKey(key, windowMinutes), countTtl(windowMinutes));
    }

    private String countKey(String key, long windowMinutes) {
        return key + ":" + clock.instant().getEpochSecond() / window(windowMinutes);
    }

    private static Duration countTtl(long windowMinutes) {
        return Duration.ofSeconds(2 * window(windowMinutes));
    }

    private static long window(long windowMinutes) {
        return Math.max(60L, windowMinutes * 60L);
    }

    /** {@link AlertSettings} lets only true or false start. */
    private boolean theftRevokes() {
        return config.alertsRefreshTheftRevoke.trim().equalsIgnoreCase("true");
    }

    /** An alert must never fail the request that noticed it. */
    private void alert(String kind, String subject, String details) {
        try {
            alerts.raise(kind, subject, details);
        } catch (RuntimeException failed) {
            LOG.warning(() -> "SECURITY ALERT " + kind + " could not be recorded: " + failed);
        }
    }

    /**
     * The last refresh of one refresh token: the place (network prefix), the address, and when (epoch seconds of
     * the injectable clock). Stored as {@code place|address|seconds}; neither a place nor an address literal the
     * locator accepted contains a bar.
     */
    record Sighting(String place, String address, long at) {

        private static final int MAX_LENGTH = 200;

        String encode() {
            return place + "|" + address + "|" + at;
        }

        /** Another place, at most {@code windowSeconds} apart in either direction (test clocks go back too). */
        boolean elsewhereWithin(Sighting other, long windowSeconds) {
            return !place.equals(other.place) && Math.abs(at - other.at) <= windowSeconds;
        }

        /** The stored text read back; empty for anything this class did not write. */
        static Optional<Sighting> parse(String text) {
            if (text == null || text.length() > MAX_LENGTH) {
                return Optional.empty();
            }
            String[] parts = text.split("\\|", -1);
            if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty()
                    || !SECONDS.matcher(parts[2]).matches()) {
                return Optional.empty();
            }
            return Optional.of(new Sighting(parts[0], parts[1], Long.parseLong(parts[2])));
        }
    }
}
