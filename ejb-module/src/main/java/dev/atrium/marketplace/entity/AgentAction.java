package dev.atrium.marketplace.entity;

import java.util.Locale;

/** The moves recorded in an agent's history. */
public enum AgentAction {
    SUBMITTED, RESUBMITTED, APPROVED, REJECTED, TAKEN_DOWN;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
