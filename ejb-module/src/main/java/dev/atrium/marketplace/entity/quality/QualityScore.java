package dev.atrium.marketplace.entity.quality;

/**
 * The spec's quality score over a window: success_rate × 2.5 + min(1, 10 / max(avg_latency_s, 0.1)) × 1.0
 * + min(1, 0.05 / max(avg_cost, 0.001)) × 0.5 + safety × 1.0, capped at 5.0. Safety is 1.0 without security incidents
 * in the window and loses half a point per incident (0 from two on). An agent without calls in the window has the
 * {@link #NEUTRAL} score: nothing is known, so it is neither rewarded nor punished. The card's self-declared score is
 * never used.
 */
public record QualityScore(double score, double successRate, double avgLatencySeconds, double avgCostUsd,
                           long totalCalls, int incidents) {

    /** The score of an agent without calls in the window: the middle of the scale. */
    public static final double NEUTRAL = 2.5;

    public static final double CAP = 5.0;

    /** The score of these figures; {@code calls} 0 gives {@link #NEUTRAL} whatever the rest. */
    public static QualityScore of(long calls, long successes, double avgLatencySeconds, double avgCostUsd,
                                  int incidents) {
        if (calls < 0 || successes < 0 || successes > calls || incidents < 0) {
            throw new IllegalArgumentException("Impossible figures: " + successes + " of " + calls + " calls, "
                    + incidents + " incidents");
        }
        if (calls == 0) {
            return new QualityScore(NEUTRAL, 0, 0, 0, 0, incidents);
        }
        double successRate = (double) successes / calls;
        double latency = Math.max(0, avgLatencySeconds);
        double cost = Math.max(0, avgCostUsd);
        double score = successRate * 2.5
                + Math.min(1, 10 / Math.max(latency, 0.1)) * 1.0
                + Math.min(1, 0.05 / Math.max(cost, 0.001)) * 0.5
                + safety(incidents) * 1.0;
        return new QualityScore(Math.min(CAP, score), successRate, latency, cost, calls, incidents);
    }

    /** 1.0 without incidents, 0.5 with one, 0 with more. */
    public static double safety(int incidents) {
        return Math.max(0, 1 - 0.5 * incidents);
    }
}
