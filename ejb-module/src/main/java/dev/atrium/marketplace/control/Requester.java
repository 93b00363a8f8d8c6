package dev.atrium.marketplace.control;

/**
 * Who asks, as far as the marketplace cares: the user (null when anonymous) and whether they may review agents
 * (permission {@code agent:review}), which shows agents in every status.
 */
public record Requester(Long userId, boolean reviewer) {

    public static Requester anonymous() {
        return new Requester(null, false);
    }
}
