package dev.atrium.marketplace.control.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.kv.KeyValueStore;

/**
 * The marketplace's free tier (spec 03): a user on the free tier may make {@code atrium.marketplace.free-calls-per-month}
 * (100) invocations and use {@code atrium.marketplace.free-tokens-per-month} (50,000) tokens per calendar month (UTC).
 * The counters live in the shared key-value store, per user and month, so every instance agrees; they expire a day
 * after their month. A call is counted once its input was accepted, before it runs; its tokens once it ran. A call
 * that starts under the token limit finishes even if it crosses it; the next one is refused with 402 (code 40200).
 */
@ApplicationScoped
public class FreeTier {

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperties
    MarketplaceConfig config;

    /** 402 when this month's calls or tokens are used up; changes nothing. */
    public void check(long userId) {
        YearMonth month = month();
        if (store.count(callsKey(userId, month)) >= config.freeCallsPerMonth) {
            throw usedUp("calls", config.freeCallsPerMonth, month);
        }
        if (store.count(tokensKey(userId, month)) >= config.freeTokensPerMonth) {
            throw usedUp("tokens", config.freeTokensPerMonth, month);
        }
    }

    /** The keys {@link #check(long, List)} reads: this month's calls and tokens of the user. */
    public List<String> keys(long userId) {
        YearMonth month = month();
        return List.of(callsKey(userId, month), tokensKey(userId, month));
    }

    /**
     * {@link #check(long)} on the values of {@link #keys} already read (with the rate limit, in one round trip);
     * 402 when this month's calls or tokens are used up; changes nothing.
     */
    public void check(long userId, List<Optional<String>> values) {
        YearMonth month = month();
        var keys = keys(userId);
        if (KeyValueStore.integer(keys.get(0), values.get(0)) >= config.freeCallsPerMonth) {
            throw usedUp("calls", config.freeCallsPerMonth, month);
        }
        if (KeyValueStore.integer(keys.get(1), values.get(1)) >= config.freeTokensPerMonth) {
            throw usedUp("tokens", config.freeTokensPerMonth, month);
        }
    }

    /** Counts one call; 402 when it is one past the month's calls (two instances racing for the last one). */
    public void count(long userId) {
        YearMonth month = month();
        if (store.increment(callsKey(userId, month), keep(month)) > config.freeCallsPerMonth) {
            throw usedUp("calls", config.freeCallsPerMonth, month);
        }
    }

    /** Gives a counted call back when nothing ran (the sandbox was busy or refused). */
    public void uncount(long userId) {
        YearMonth month = month();
        store.add(callsKey(userId, month), -1, keep(month));
    }

    public void tokens(long userId, long tokens) {
        if (tokens > 0) {
            YearMonth month = month();
            store.add(tokensKey(userId, month), tokens, keep(month));
        }
    }

    private YearMonth month() {
        return YearMonth.now(clock.withZone(ZoneOffset.UTC));
    }

    private Duration keep(YearMonth month) {
        var end = month.plusMonths(1).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        return Duration.between(clock.instant(), end).plusDays(1);
    }

    private static BusinessException usedUp(String what, long limit, YearMonth month) {
        return new BusinessException(Problem.FREE_TIER_USED_UP, "Free tier used up",
                "The free tier allows " + limit + " " + what + " per calendar month; " + month + " is used up. It "
                        + "resets on " + month.plusMonths(1).atDay(1) + " at 00:00 UTC, or move to a paid tier");
    }

    private static String callsKey(long userId, YearMonth month) {
        return "market:free:calls:" + userId + ":" + month;
    }

    private static String tokensKey(long userId, YearMonth month) {
        return "market:free:tokens:" + userId + ":" + month;
    }
}
