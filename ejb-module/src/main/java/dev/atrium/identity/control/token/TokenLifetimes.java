package dev.atrium.identity.control.token;

import java.util.ArrayList;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.identity.control.IdentityConfig;

/**
 * Refuses to start with token lifetimes spec 01 does not allow: an access token lives 15 minutes at most, a refresh
 * token 7 days at most, and every lifetime is positive. A failure here fails the deployment with a message naming
 * the configuration key, rather than issuing tokens that outlive what the spec promises.
 */
@Startup
@Singleton
public class TokenLifetimes {

    public static final String ACCESS_KEY = "atrium.tokens.access-ttl-seconds";
    public static final String REFRESH_KEY = "atrium.tokens.refresh-ttl-seconds";
    public static final String VERIFY_KEY = "atrium.tokens.verify-ttl-seconds";
    public static final long ACCESS_MAX_SECONDS = 15 * 60;
    public static final long REFRESH_MAX_SECONDS = 7 * 24 * 3600;

    @Inject
    @ConfigProperties
    IdentityConfig config;

    @PostConstruct
    void checkAtStart() {
        check(config.tokensAccessTtlSeconds, config.tokensRefreshTtlSeconds, config.tokensVerifyTtlSeconds);
    }

    /** Throws {@link IllegalStateException} naming every key whose value is out of bounds. */
    public static void check(long accessSeconds, long refreshSeconds, long verifySeconds) {
        var problems = new ArrayList<String>();
        bounded(problems, ACCESS_KEY, accessSeconds, ACCESS_MAX_SECONDS, "15 minutes");
        bounded(problems, REFRESH_KEY, refreshSeconds, REFRESH_MAX_SECONDS, "7 days");
        bounded(problems, VERIFY_KEY, verifySeconds, Long.MAX_VALUE, null);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("Refusing to start: " + String.join("; ", problems));
        }
    }

    private static void bounded(ArrayList<String> problems, String key, long seconds, long max, String spec) {
        String named = IdentityConfig.named(key, seconds);
        if (seconds <= 0) {
            problems.add(named + ", but must be a positive number of seconds");
        } else if (seconds > max) {
            problems.add(named + ", but spec 01 allows at most " + max + " (" + spec + ")");
        }
    }
}
