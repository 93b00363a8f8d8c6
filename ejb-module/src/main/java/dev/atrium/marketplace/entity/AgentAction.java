package dev.atrium.marketplace.entity;

import java.util.Locale;

/**
 * The moves recorded in an agent's history. {@code trust_changed} keeps the status and names the levels in its
 * reason code ({@code unverified_to_community}); {@code incident} records a security incident on record;
 * {@code checked} and {@code rescanned} summarise the pre-listing checks at submission and an administrator's re-scan.
 */
public enum AgentAction {
    SUBMITTED, RESUBMITTED, APPROVED, REJECTED, TAKEN_DOWN, TRUST_CHANGED, INCIDENT, CHECKED, RESCANNED;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
