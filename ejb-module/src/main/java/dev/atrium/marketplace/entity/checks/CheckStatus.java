package dev.atrium.marketplace.entity.checks;

import java.util.Locale;

/** A pre-listing check's outcome: {@code failed} when it found something high-risk, {@code not_run} with a reason. */
public enum CheckStatus {
    PASSED, FAILED, NOT_RUN;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static CheckStatus of(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
