package dev.atrium.marketplace.entity;

import java.util.Locale;

/** Where the rollout of an agent's next version stands. */
public enum RolloutState {
    /** One version serves every caller. */
    NONE,
    /** A candidate serves a share of callers, advancing step by step while its quality holds. */
    ROLLING_OUT,
    /** A candidate holds its share of callers and does not advance until resumed. */
    PAUSED;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
