package dev.atrium.marketplace.control.pii;

import java.util.Locale;

/** The kinds of personal data, in the order they are reported; each is replaced by its mask. */
public enum Kind {
    EMAIL, PHONE, CARD, IBAN;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public String mask() {
        return "[" + label() + "]";
    }
}
