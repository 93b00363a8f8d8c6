package dev.atrium.marketplace.entity;

import java.util.Locale;

/**
 * The record's status. {@code pending} is the spec's "pending review" (the submission answer says
 * {@code pending_review}); {@code active} is "listed", the only searchable status; {@code suspended} is "taken down";
 * {@code rejected} is a pending agent the review turned down, kept so that its author can resubmit.
 */
public enum AgentStatus {
    PENDING, ACTIVE, SUSPENDED, REJECTED;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
