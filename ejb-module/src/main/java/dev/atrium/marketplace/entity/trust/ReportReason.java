package dev.atrium.marketplace.entity.trust;

import java.util.Locale;

/** What a user's security report says the agent does; the report's details say how. */
public enum ReportReason {
    MALICIOUS_CODE, DATA_EXFILTRATION, UNDECLARED_ACCESS, PROMPT_INJECTION, CREDENTIAL_THEFT, OTHER;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ReportReason of(String value) {
        return valueOf(value.trim().toUpperCase(Locale.ROOT));
    }
}
