package dev.atrium.marketplace.entity.checks;

import java.util.Locale;

/**
 * The outcome of the smoke tests at submission. {@code not_run} until the sandbox exists: a submission is never
 * reported as tested when it was not.
 */
public enum SmokeStatus {
    NOT_RUN, PASSED, FAILED;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
