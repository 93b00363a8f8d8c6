package dev.atrium.marketplace.control.pii;

/** The character classes the detectors share. */
final class Chars {

    private Chars() {
    }

    /** Invisible format characters (zero-width spaces, bidi marks, soft hyphen): skipped inside a candidate. */
    static boolean invisible(char c) {
        return Character.getType(c) == Character.FORMAT;
    }

    static boolean digit(char c) {
        return Character.isDigit(c);
    }

    static boolean word(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    static boolean space(char c) {
        return c == ' ' || c == '\u00A0' || c == '\u2007' || c == '\u2009' || c == '\u202F' || c == '\t';
    }

    static boolean hyphen(char c) {
        return c == '-' || c >= '\u2010' && c <= '\u2013' || c == '\u2212';
    }

    static boolean asciiLetter(char c) {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z';
    }

    static boolean asciiAlnum(char c) {
        return asciiLetter(c) || c >= '0' && c <= '9';
    }

    /** The visible character before {@code index}, skipping invisible ones; 0 at the start. */
    static char before(String text, int index) {
        for (int i = index - 1; i >= 0; i--) {
            if (!invisible(text.charAt(i))) {
                return text.charAt(i);
            }
        }
        return 0;
    }

    /** The visible character at or after {@code index}; 0 at the end. */
    static char at(String text, int index) {
        for (int i = index; i < text.length(); i++) {
            if (!invisible(text.charAt(i))) {
                return text.charAt(i);
            }
        }
        return 0;
    }
}
