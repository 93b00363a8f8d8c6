package dev.atrium.marketplace.control.pii;

import static dev.atrium.marketplace.control.pii.Chars.hyphen;
import static dev.atrium.marketplace.control.pii.Chars.invisible;

import java.util.List;

/**
 * {@code local@domain}: the local part letters, digits and {@code . _ % + -}, or quoted ({@code "john doe"@…},
 * also with JSON's escaped quotes); the domain at least two labels of letters, digits and hyphens with a top-level
 * label of two or more letters (so {@code a@10.0.0.1} is not one); the full-width {@code ＠} counts as {@code @}. The
 * local part is read back at most 64 characters from the {@code @}, the domain at most 253 forward.
 */
final class EmailDetector implements Detector {

    private static final int LOCAL_MAX = 64;
    private static final int DOMAIN_MAX = 253;

    static boolean atSign(char c) {
        return c == '@' || c == '\uFF20';
    }

    static boolean local(char c) {
        return Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'
                || invisible(c);
    }

    private static boolean domain(char c) {
        return Character.isLetterOrDigit(c) || c == '.' || c == '-' || invisible(c);
    }

    @Override
    public void find(String text, List<Found> into) {
        int copied = 0;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            if (!atSign(text.charAt(i))) {
                continue;
            }
            int start = quotedStart(text, i, copied);
            if (start < 0) {
                start = i;
                while (start > copied && i - start < LOCAL_MAX && local(text.charAt(start - 1))) {
                    start--;
                }
                while (start < i && (text.charAt(start) == '.' || invisible(text.charAt(start)))) {
                    start++;
                }
            }
            if (start == i) {
                continue;
            }
            int end = i + 1;
            while (end < n && end - i <= DOMAIN_MAX && domain(text.charAt(end))) {
                end++;
            }
            end = validDomainEnd(text, i + 1, end);
            if (end < 0) {
                continue;
            }
            into.add(new Found(start, end, Kind.EMAIL));
            copied = end;
            i = end - 1;
        }
    }

    /**
     * The start of a quoted local part ending right before the {@code @} at {@code at}: {@code "…"} or, inside JSON
     * text, {@code \"…\"}; no quote, line break or {@code @} inside, at most 64 characters. -1 when there is none.
     */
    private static int quotedStart(String text, int at, int floor) {
        int close = at - 1;
        if (close <= floor || text.charAt(close) != '"') {
            return -1;
        }
        boolean escaped = text.charAt(close - 1) == '\\';
        int contentEnd = escaped ? close - 1 : close;
        for (int k = contentEnd - 1; k >= floor && contentEnd - k <= LOCAL_MAX; k--) {
            char c = text.charAt(k);
            if (c == '"') {
                if (k + 1 == contentEnd) {
                    return -1;
                }
                if (!escaped) {
                    return k;
                }
                return k > floor && text.charAt(k - 1) == '\\' ? k - 1 : -1;
            }
            if (c == '\n' || c == '\r' || atSign(c)) {
                return -1;
            }
        }
        return -1;
    }

    /** The end of a valid domain in [from, to), trailing dots and hyphens dropped; -1 if none. */
    private static int validDomainEnd(String text, int from, int to) {
        int end = to;
        while (end > from && (text.charAt(end - 1) == '.' || hyphen(text.charAt(end - 1))
                || invisible(text.charAt(end - 1)))) {
            end--;
        }
        if (end - from > DOMAIN_MAX) {
            return -1;
        }
        int labels = 0;
        int labelStart = from;
        String last = null;
        for (int i = from; i <= end; i++) {
            if (i == end || text.charAt(i) == '.') {
                String label = visible(text, labelStart, i);
                if (label.isEmpty() || label.length() > 63 || label.startsWith("-") || label.endsWith("-")) {
                    return -1;
                }
                labels++;
                last = label;
                labelStart = i + 1;
            }
        }
        if (labels < 2 || last.length() < 2) {
            return -1;
        }
        for (int i = 0; i < last.length(); i++) {
            if (!Character.isLetter(last.charAt(i))) {
                return -1;
            }
        }
        return end;
    }

    private static String visible(String text, int from, int to) {
        StringBuilder label = new StringBuilder(to - from);
        for (int i = from; i < to; i++) {
            if (!invisible(text.charAt(i))) {
                label.append(text.charAt(i));
            }
        }
        return label.toString();
    }
}
