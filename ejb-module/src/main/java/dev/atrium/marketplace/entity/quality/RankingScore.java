package dev.atrium.marketplace.entity.quality;

import java.time.Duration;
import java.time.Instant;

/**
 * The spec's ranking score: 0.4 (quality / 5) + 0.2 min(calls / 1000, 1) + 0.3 (rating / 5) + 0.1 freshness.
 * Freshness halves every 30 days since {@code updated_at} (1 for an agent changed now), so a maintained agent
 * keeps a small edge without old favourites dropping off.
 */
public final class RankingScore {

    public static final Duration FRESHNESS_HALF_LIFE = Duration.ofDays(30);

    private RankingScore() {
    }

    public static double of(double qualityScore, long totalCalls, double avgRating, Instant updatedAt, Instant now) {
        return 0.4 * (clamp(qualityScore, 5) / 5)
                + 0.2 * Math.min(Math.max(totalCalls, 0) / 1000.0, 1)
                + 0.3 * (clamp(avgRating, 5) / 5)
                + 0.1 * freshness(updatedAt, now);
    }

    static double freshness(Instant updatedAt, Instant now) {
        double ageDays = Math.max(0, Duration.between(updatedAt, now).toSeconds()) / 86_400.0;
        return Math.pow(0.5, ageDays / FRESHNESS_HALF_LIFE.toDays());
    }

    private static double clamp(double value, double max) {
        return Math.max(0, Math.min(value, max));
    }
}
