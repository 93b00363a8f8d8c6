package dev.atrium.marketplace.entity.checks;

import java.util.Objects;

/**
 * One thing a check found: its severity, where ({@code pointer}: a file in the bundle with an optional
 * {@code :line}, or a JSON pointer into the card) and what, in words. Messages never repeat a secret they found.
 */
public record CheckFinding(Severity severity, String pointer, String message) {

    static final int MAX_MESSAGE = 500;
    static final int MAX_POINTER = 300;

    public CheckFinding {
        Objects.requireNonNull(severity, "severity");
        pointer = cut(pointer == null ? "" : pointer, MAX_POINTER);
        message = cut(Objects.requireNonNull(message, "message"), MAX_MESSAGE);
    }

    public static CheckFinding high(String pointer, String message) {
        return new CheckFinding(Severity.HIGH, pointer, message);
    }

    public static CheckFinding medium(String pointer, String message) {
        return new CheckFinding(Severity.MEDIUM, pointer, message);
    }

    public static CheckFinding low(String pointer, String message) {
        return new CheckFinding(Severity.LOW, pointer, message);
    }

    static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }
}
