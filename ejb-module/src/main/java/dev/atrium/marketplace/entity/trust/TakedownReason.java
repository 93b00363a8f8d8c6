package dev.atrium.marketplace.entity.trust;

import java.util.Locale;

/**
 * The spec's grounds for a takedown: the manual ones a reviewer gives with free text, and the automatic
 * {@code security_reports} (3 or more users reported a security problem) and {@code high_risk_finding} (a re-scan
 * of the stored bundle found something high-risk).
 */
public enum TakedownReason {
    DESCRIPTION_SERIOUSLY_WRONG, HIDDEN_CHARGING, COPYING_ANOTHER_DEVELOPER, SECURITY_REPORTS, HIGH_RISK_FINDING;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
