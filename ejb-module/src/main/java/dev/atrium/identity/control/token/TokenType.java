package dev.atrium.identity.control.token;

import java.util.Locale;

/** The kinds of signed token, by the value of their {@code type} claim. SSO tokens carry the access claims. */
public enum TokenType {
    ACCESS,
    REFRESH,
    EMAIL_VERIFY;

    public String claim() {
        return name().toLowerCase(Locale.ROOT);
    }
}
