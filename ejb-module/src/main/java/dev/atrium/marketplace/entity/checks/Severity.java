package dev.atrium.marketplace.entity.checks;

import java.util.Locale;

/** How bad a pre-listing finding is: a high finding rejects a submission and takes a listed agent down. */
public enum Severity {
    LOW, MEDIUM, HIGH;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Severity of(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
