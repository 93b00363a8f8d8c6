package dev.atrium.marketplace.entity;

import java.util.Locale;

/**
 * The moves recorded in an agent's history. {@code trust_changed} keeps the status and names the levels in its
 * reason code ({@code unverified_to_community}); {@code incident} records a security incident on record.
 */
public enum AgentAction {
    SUBMITTED, RESUBMITTED, APPROVED, REJECTED, TAKEN_DOWN, TRUST_CHANGED, INCIDENT;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
