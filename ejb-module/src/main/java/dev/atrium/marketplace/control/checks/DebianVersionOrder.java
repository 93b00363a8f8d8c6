package dev.atrium.marketplace.control.checks;

import java.util.Comparator;

/**
 * Debian's version order (Debian Policy 5.6.12, as dpkg compares): {@code [epoch:]upstream[-revision]}, the epoch
 * numerically (none is 0), then upstream and revision each by alternating runs of non-digits and digits; non-digits
 * compare character by character with letters before other characters and {@code ~} before anything, even the end
 * (so {@code 1.0~rc1 < 1.0}); digits compare as numbers. A malformed epoch counts as none.
 */
final class DebianVersionOrder implements Comparator<String> {

    static final DebianVersionOrder INSTANCE = new DebianVersionOrder();

    private DebianVersionOrder() {
    }

    @Override
    public int compare(String a, String b) {
        String[] x = split(a.strip());
        String[] y = split(b.strip());
        int c = Long.compare(epoch(x[0]), epoch(y[0]));
        if (c != 0) {
            return c;
        }
        c = verrevcmp(x[1], y[1]);
        return c != 0 ? c : verrevcmp(x[2], y[2]);
    }

    /** Epoch, upstream version, revision. */
    private static String[] split(String v) {
        int colon = v.indexOf(':');
        String epoch = colon > 0 ? v.substring(0, colon) : "";
        String rest = colon > 0 ? v.substring(colon + 1) : v;
        int dash = rest.lastIndexOf('-');
        return dash > 0 ? new String[] {epoch, rest.substring(0, dash), rest.substring(dash + 1)}
                : new String[] {epoch, rest, ""};
    }

    private static long epoch(String s) {
        if (s.isEmpty() || s.length() > 9 || !s.chars().allMatch(Character::isDigit)) {
            return 0;
        }
        return Long.parseLong(s);
    }

    private static int weight(String s, int i) {
        if (i >= s.length()) {
            return 0;
        }
        char c = s.charAt(i);
        if (c == '~') {
            return -1;
        }
        if (Character.isDigit(c)) {
            return 0;
        }
        return Character.isLetter(c) ? c : c + 256;
    }

    private static int verrevcmp(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() || j < b.length()) {
            int firstDiff = 0;
            while ((i < a.length() && !Character.isDigit(a.charAt(i)))
                    || (j < b.length() && !Character.isDigit(b.charAt(j)))) {
                int ac = weight(a, i);
                int bc = weight(b, j);
                if (ac != bc) {
                    return Integer.compare(ac, bc);
                }
                i++;
                j++;
            }
            while (i < a.length() && a.charAt(i) == '0') {
                i++;
            }
            while (j < b.length() && b.charAt(j) == '0') {
                j++;
            }
            while (i < a.length() && Character.isDigit(a.charAt(i)) && j < b.length()
                    && Character.isDigit(b.charAt(j))) {
                if (firstDiff == 0) {
                    firstDiff = a.charAt(i) - b.charAt(j);
                }
                i++;
                j++;
            }
            if (i < a.length() && Character.isDigit(a.charAt(i))) {
                return 1;
            }
            if (j < b.length() && Character.isDigit(b.charAt(j))) {
                return -1;
            }
            if (firstDiff != 0) {
                return Integer.signum(firstDiff);
            }
        }
        return 0;
    }
}
