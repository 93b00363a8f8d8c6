package dev.atrium.marketplace.entity.runtime;

import java.util.Locale;

import dev.atrium.sandbox.Outcome;

/**
 * How one invocation's run ended, as the run record, the {@code Atrium-Run-Status} header and the author's list say
 * it: {@code succeeded} (exit 0 and a protocol reply), {@code failed} (a non-zero exit or a reply that breaks the
 * protocol), or the sandbox limit that stopped it.
 */
public enum RunStatus {
    SUCCEEDED, FAILED, TIMED_OUT, MEMORY_LIMIT, OUTPUT_LIMIT, KILLED;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The status of a run that ended with {@code outcome}; {@code replied} when the protocol reply was read. */
    public static RunStatus of(Outcome outcome, boolean replied) {
        return switch (outcome) {
            case TIMED_OUT -> TIMED_OUT;
            case MEMORY_LIMIT -> MEMORY_LIMIT;
            case OUTPUT_LIMIT -> OUTPUT_LIMIT;
            case KILLED -> KILLED;
            case EXITED -> replied ? SUCCEEDED : FAILED;
        };
    }

    public boolean succeeded() {
        return this == SUCCEEDED;
    }
}
