package dev.atrium.identity.control;

import java.util.Locale;
import java.util.Optional;

import org.eclipse.microprofile.config.inject.ConfigProperties;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.identity.control.login.AlertSettings;
import dev.atrium.identity.control.login.KnownCallers;
import dev.atrium.identity.control.token.TokenLifetimes;

/**
 * The identity context's configuration: every key under atrium.identity, atrium.tokens, atrium.keys, atrium.jwt,
 * atrium.session, atrium.login, atrium.password(s), atrium.api-keys, atrium.admin and atrium.alerts, with its
 * default. The alert thresholds are checked at start by {@link AlertSettings}, the token lifetimes by
 * {@link TokenLifetimes}.
 */
@ConfigProperties(prefix = "atrium")
public class IdentityConfig {

    /** A user kept by {@link KnownCallers} is read again after this at the latest. */
    @ConfigProperty(name = "identity.caller-cache-seconds", defaultValue = "30")
    public long callerCacheSeconds;

    @ConfigProperty(name = "tokens.access-ttl-seconds", defaultValue = "900")
    public long tokensAccessTtlSeconds;

    @ConfigProperty(name = "tokens.refresh-ttl-seconds", defaultValue = "604800")
    public long tokensRefreshTtlSeconds;

    @ConfigProperty(name = "tokens.verify-ttl-seconds", defaultValue = "86400")
    public long tokensVerifyTtlSeconds;

    /** A current signing key older than this is replaced; 0 = only on demand. */
    @ConfigProperty(name = "keys.rotate-after-days", defaultValue = "90")
    public int keysRotateAfterDays;

    /** The master secret (32+ bytes); unset, a random one kept in the data directory. */
    @ConfigProperty(name = "jwt.secret")
    public Optional<String> jwtSecret;

    /** A session is refused to a request from another client address than the one it was created from. */
    @ConfigProperty(name = "session.bind-ip", defaultValue = "false")
    public boolean sessionBindIp;

    /** A session is refused to a request from another User-Agent than the one it was created from. */
    @ConfigProperty(name = "session.bind-user-agent", defaultValue = "true")
    public boolean sessionBindUserAgent;

    /** {@code token} (login answers tokens) or {@code session} (login sets the session cookie). */
    @ConfigProperty(name = "login.mode", defaultValue = "token")
    public String loginMode;

    /** A front end's own reset page; the token is appended as the {@code token} query parameter. */
    @ConfigProperty(name = "password.reset-url")
    public Optional<String> passwordResetUrl;

    /** Threads hashing passwords on an instance; 0 = one per processor. */
    @ConfigProperty(name = "passwords.hash-threads", defaultValue = "0")
    public int passwordsHashThreads;

    /** A caller whose hash has not begun within this gets 503. */
    @ConfigProperty(name = "passwords.hash-wait-seconds", defaultValue = "10")
    public long passwordsHashWaitSeconds;

    /** API keys a user may issue per clock hour. */
    @ConfigProperty(name = "api-keys.per-hour", defaultValue = "20")
    public int apiKeysPerHour;

    /** The first administrator, created at start with {@link #adminPassword} when that account does not exist. */
    @ConfigProperty(name = "admin.email")
    public Optional<String> adminEmail;

    @ConfigProperty(name = "admin.password")
    public Optional<String> adminPassword;

    // the alert thresholds are held as long (the readers use int) so that AlertSettings can name a value that
    // would not fit rather than fail on it

    @ConfigProperty(name = "alerts.cooldown-minutes", defaultValue = "60")
    public long alertsCooldownMinutes;

    @ConfigProperty(name = "alerts.login.min-attempts", defaultValue = "20")
    public long alertsLoginMinAttempts;

    @ConfigProperty(name = "alerts.login.min-success-percent", defaultValue = "95")
    public double alertsLoginMinSuccessPercent;

    @ConfigProperty(name = "alerts.login.max-failures-per-address", defaultValue = "50")
    public long alertsLoginMaxFailuresPerAddress;

    @ConfigProperty(name = "alerts.refresh.max", defaultValue = "30")
    public long alertsRefreshMax;

    @ConfigProperty(name = "alerts.refresh.window-minutes", defaultValue = "10")
    public long alertsRefreshWindowMinutes;

    @ConfigProperty(name = "alerts.refresh-theft.window-minutes", defaultValue = "10")
    public long alertsRefreshTheftWindowMinutes;

    // read as text: MicroProfile Config turns any word it does not know into false, so a typo would quietly
    // switch revocation off
    @ConfigProperty(name = "alerts.refresh-theft.revoke", defaultValue = "true")
    public String alertsRefreshTheftRevoke;

    @ConfigProperty(name = "alerts.location.window-minutes", defaultValue = "60")
    public long alertsLocationWindowMinutes;

    @ConfigProperty(name = "alerts.password-reset.max", defaultValue = "5")
    public long alertsPasswordResetMax;

    @ConfigProperty(name = "alerts.password-reset.window-minutes", defaultValue = "60")
    public long alertsPasswordResetWindowMinutes;

    /** A key and its value as a refusal to start names them, with the environment variable that sets the key. */
    public static String named(String key, Object value) {
        return key + " (" + key.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_") + ") is " + value;
    }
}
