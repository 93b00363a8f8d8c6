package dev.atrium.marketplace.control.trust;

/**
 * The promotion unverified → community, earned from strangers (DESIGN 16): at least {@code minCalls} successful calls
 * by verified callers other than the author, from at least {@code minDistinctCallers} such callers, an average rating
 * of at least {@value #MIN_RATING} over at least {@code minReviews} reviews (no reviews, no promotion), and no
 * security incident on record. An author's own calls and those of a handful of accounts they made do not promote.
 */
public record PromotionRule(long minCalls, long minDistinctCallers, long minReviews) {

    public static final long MIN_CALLS = 100;
    public static final long MIN_DISTINCT_CALLERS = 10;
    public static final long MIN_REVIEWS = 3;
    public static final double MIN_RATING = 4.0;

    /** The spec's figures, with the defaults of DESIGN 16. */
    public static final PromotionRule DEFAULT = new PromotionRule(MIN_CALLS, MIN_DISTINCT_CALLERS, MIN_REVIEWS);

    /** At least one of each: a rule that asks nothing would promote every agent. */
    public PromotionRule {
        minCalls = Math.max(1, minCalls);
        minDistinctCallers = Math.max(1, minDistinctCallers);
        minReviews = Math.max(1, minReviews);
    }

    /**
     * What the rule judges: {@code calls} and {@code callers} count only successful calls by verified callers other
     * than the author.
     */
    public record Figures(long calls, long callers, long reviews, double averageRating, long incidents) {
    }

    /** Whether an agent with these figures has earned community trust. */
    public boolean earned(Figures f) {
        return reviewsAllow(f.reviews(), f.averageRating()) && f.calls() >= minCalls
                && f.callers() >= minDistinctCallers && f.incidents() <= 0;
    }

    /**
     * Whether figures read from the agent's own row (every call counted, the reviews) leave a promotion possible: the
     * cheap test before the calls are counted caller by caller.
     */
    public boolean possible(long allCalls, long reviews, double averageRating) {
        return allCalls >= minCalls && reviewsAllow(reviews, averageRating);
    }

    private boolean reviewsAllow(long reviews, double averageRating) {
        return reviews >= minReviews && averageRating >= MIN_RATING;
    }

    /** The history's reason for a promotion with these figures. */
    static String because(Figures f) {
        return "unverified → community: " + f.calls() + " successful calls by " + f.callers()
                + " distinct verified callers other than the author, " + f.reviews() + " reviews averaging "
                + Math.round(f.averageRating() * 100) / 100.0 + ", no security incident";
    }
}
