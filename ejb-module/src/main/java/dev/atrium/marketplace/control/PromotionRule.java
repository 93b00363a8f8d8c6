package dev.atrium.marketplace.control;

/**
 * The spec's promotion unverified → community: at least {@value #MIN_CALLS} calls, an average rating of at least
 * {@value #MIN_RATING} once reviews exist, and no security incident on record. Until an agent has a review its
 * rating cannot be judged, so the rating does not block it; the first reviews then decide (an agent promoted before
 * its reviews stays community until an incident or an administrator demotes it).
 */
public final class PromotionRule {

    public static final long MIN_CALLS = 100;
    public static final double MIN_RATING = 4.0;

    private PromotionRule() {
    }

    /** Whether an agent with these figures has earned community trust. */
    public static boolean earned(long calls, long reviews, double averageRating, long incidents) {
        return calls >= MIN_CALLS && (reviews <= 0 || averageRating >= MIN_RATING) && incidents <= 0;
    }

    /** The history's reason for a promotion with these figures. */
    static String because(long calls, long reviews, double averageRating) {
        return "unverified → community: " + calls + " calls, "
                + (reviews <= 0 ? "no reviews yet" : reviews + " reviews averaging " + averageRating)
                + ", no security incident";
    }
}
