package dev.atrium.marketplace.entity;

import java.util.Locale;

/**
 * The record's trust level, which sets the sandbox ceilings. Cards name the middle level {@code community_verified};
 * the record calls it {@code community}.
 */
public enum TrustLevel {
    UNVERIFIED, COMMUNITY, OFFICIAL;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The card's spelling of this level. */
    public String cardValue() {
        return this == COMMUNITY ? "community_verified" : value();
    }

    /** Reads a card's or the record's spelling. */
    public static TrustLevel of(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        return "community_verified".equals(v) ? COMMUNITY : valueOf(v.toUpperCase(Locale.ROOT));
    }
}
