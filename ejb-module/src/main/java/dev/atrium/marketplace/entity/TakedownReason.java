package dev.atrium.marketplace.entity;

import java.util.Locale;

/** The spec's grounds for a manual takedown; the reviewer adds free text. */
public enum TakedownReason {
    DESCRIPTION_SERIOUSLY_WRONG, HIDDEN_CHARGING, COPYING_ANOTHER_DEVELOPER;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
