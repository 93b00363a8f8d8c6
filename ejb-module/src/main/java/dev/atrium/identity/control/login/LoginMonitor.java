package dev.atrium.identity.control.login;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.platform.kv.KeyValueStore;

/**
 * The anomaly signals of spec 01, counted per UTC hour in the shared store so all instances see one figure: login
 * success rate below {@code atrium.alerts.login.min-success-percent} (95) once at least
 * {@code atrium.alerts.login.min-attempts} (20) attempts were made that hour, so a single typo is not an alarm, and
 * more than {@code atrium.alerts.login.max-failures-per-address} (50) failed logins from one address. Both are
 * metrics; crossing one raises a security alert through {@link AlertService}, once per episode and address.
 */
@ApplicationScoped
public class LoginMonitor {

    private static final Logger LOG = Logger.getLogger(LoginMonitor.class.getName());
    private static final Duration KEEP = Duration.ofHours(2);

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    @EJB
    AlertService alerts;

    @Inject
    MetricRegistry metrics;

    @Inject
    @ConfigProperties
    IdentityConfig config;

    @PostConstruct
    void register() {
        metrics.gauge("atrium_login_success_rate_hour", this, LoginMonitor::successRate);
        metrics.gauge("atrium_login_attempts_hour", this, m -> m.count("ok") + m.count("fail"));
    }

    public void record(boolean success, String address) {
        metrics.counter("atrium_login_attempts_total", new Tag("outcome", success ? "success" : "failure")).inc();
        count(success, address);
    }

    /** The counting and the two signals, apart from the metric registry so a unit test can drive them. */
    void count(boolean success, String address) {
        long hour = hour();
        long counted = store.increment(key(hour, success ? "ok" : "fail"), KEEP);
        if (!success) {
            long fromAddress = store.increment("mon:ipfail:" + address + ":" + hour, KEEP);
            long maxFailures = config.alertsLoginMaxFailuresPerAddress;
            if (fromAddress > maxFailures) {
                alert("failures_per_address", "address:" + address, "more than " + maxFailures
                        + " failed logins this hour from " + address);
            }
        }
        // the increment answered this outcome's count; only the other one is read
        long other = store.count(key(hour, success ? "fail" : "ok"));
        long ok = success ? counted : other;
        long total = counted + other;
        double minSuccessPercent = config.alertsLoginMinSuccessPercent;
        if (total >= config.alertsLoginMinAttempts && 100.0 * ok / total < minSuccessPercent) {
            alert("success_rate", "all", String.format(Locale.ROOT,
                    "login success rate %.1f%% this hour (%d of %d), below %s%%", 100.0 * ok / total, ok, total,
                    BigDecimal.valueOf(minSuccessPercent).stripTrailingZeros().toPlainString()));
        }
    }

    double successRate() {
        long ok = count("ok");
        long total = ok + count("fail");
        return total == 0 ? 1.0 : (double) ok / total;
    }

    private long count(String outcome) {
        return store.count(key(hour(), outcome));
    }

    private static String key(long hour, String outcome) {
        return "mon:login:" + hour + ":" + outcome;
    }

    /** An alert must never fail the login that noticed it. */
    private void alert(String kind, String subject, String text) {
        try {
            alerts.raise(kind, subject, text);
        } catch (RuntimeException failed) {
            LOG.warning(() -> "SECURITY ALERT " + kind + " could not be recorded: " + failed);
        }
    }

    private long hour() {
        return clock.instant().getEpochSecond() / 3600;
    }
}
