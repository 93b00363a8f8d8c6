package dev.atrium.marketplace.entity;

import java.util.Locale;

/**
 * The moves recorded in an agent's history. {@code trust_changed} keeps the status and names the levels in its
 * reason code ({@code unverified_to_community}); {@code incident} records a security incident on record;
 * {@code rescanned} summarises an administrator's re-scan (the submission's own entry summarises the pre-listing checks
 * at submission, its reason code the worst finding: {@code no_findings}, {@code findings_low},
 * {@code findings_medium}). {@code reinstated} is a reviewer lifting a takedown after review (status back to
 * {@code active}, trust as it was). The rollout moves name, in their version column, the candidate version they concern.
 * {@code secret_set} and {@code secret_deleted} name the secret in their reason, never its value.
 */
public enum AgentAction {
    SUBMITTED, RESUBMITTED, APPROVED, REJECTED, TAKEN_DOWN, TRUST_CHANGED, INCIDENT, RESCANNED,
    ROLLOUT_STARTED, ROLLOUT_ADVANCED, ROLLOUT_COMPLETED, ROLLOUT_PAUSED, ROLLOUT_RESUMED, ROLLED_BACK,
    SECRET_SET, SECRET_DELETED, REINSTATED;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
