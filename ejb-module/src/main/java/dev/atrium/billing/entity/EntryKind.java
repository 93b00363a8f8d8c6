package dev.atrium.billing.entity;

import java.util.Locale;

/** Why money moved. */
public enum EntryKind {
    USAGE, SIGNUP_CREDIT, TOP_UP, ADMIN_CREDIT, REFUND, PAYOUT, PAYOUT_RETURNED;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
