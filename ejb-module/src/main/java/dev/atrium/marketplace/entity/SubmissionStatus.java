package dev.atrium.marketplace.entity;

import java.util.Locale;

/** Where an accepted submission stands: waiting for review, decided, or replaced by a newer version before review. */
public enum SubmissionStatus {
    PENDING_REVIEW, APPROVED, REJECTED, SUPERSEDED;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
