package dev.atrium.ai.entity;

import java.util.Locale;

/**
 * The tenant tiers of spec 02 with their daily quotas and upload limit. Which models a tier may use is
 * configuration (the model catalog).
 */
public enum Tier {
    FREE(100, 100_000, 10),
    PRO(1_000, 1_000_000, 10),
    ENTERPRISE(10_000, 10_000_000, 10);

    private final int dailyRequests;
    private final long dailyTokens;
    private final int maxFileSizeMb;

    Tier(int dailyRequests, long dailyTokens, int maxFileSizeMb) {
        this.dailyRequests = dailyRequests;
        this.dailyTokens = dailyTokens;
        this.maxFileSizeMb = maxFileSizeMb;
    }

    public int dailyRequests() {
        return dailyRequests;
    }

    public long dailyTokens() {
        return dailyTokens;
    }

    public int maxFileSizeMb() {
        return maxFileSizeMb;
    }

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Tier of(String value) {
        return valueOf(value.trim().toUpperCase(Locale.ROOT));
    }
}
