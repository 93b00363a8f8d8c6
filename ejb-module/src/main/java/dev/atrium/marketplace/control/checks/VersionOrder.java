package dev.atrium.marketplace.control.checks;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * One order for the version strings of PyPI, npm and Maven, good enough to place a version inside an advisory's
 * range: a version is split into numbers and words (at {@code . - _ +} and where digits meet letters); numbers
 * compare as numbers, and words rank as pre-releases below the release ({@code dev}/{@code snapshot} &lt;
 * {@code alpha}/{@code a} &lt; {@code beta}/{@code b} &lt; {@code milestone}/{@code m} &lt; {@code rc}/{@code cr}/
 * {@code c} &lt; other words &lt; release ({@code final}, {@code ga}) &lt; {@code post}/{@code sp}); a missing part
 * counts as {@code 0} against a number and as the release against a word. So {@code 2.0-beta9 < 2.0 = 2.0.0 <
 * 2.0.1}, and {@code 5.4b1 < 5.4}. A leading {@code v} and a {@code N!} epoch are ignored.
 */
final class VersionOrder implements Comparator<String> {

    static final VersionOrder INSTANCE = new VersionOrder();

    private static final int RELEASE = 6;

    private VersionOrder() {
    }

    @Override
    public int compare(String a, String b) {
        List<Object> x = parts(a);
        List<Object> y = parts(b);
        for (int i = 0; i < Math.max(x.size(), y.size()); i++) {
            Object p = i < x.size() ? x.get(i) : null;
            Object q = i < y.size() ? y.get(i) : null;
            int c = comparePart(p, q);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static int comparePart(Object p, Object q) {
        if (p == null && q == null) {
            return 0;
        }
        if (p == null) {
            return -comparePart(q, null);
        }
        if (p instanceof BigInteger n) {
            if (q == null) {
                return n.signum();
            }
            return q instanceof BigInteger m ? n.compareTo(m) : 1;
        }
        String w = (String) p;
        if (q == null) {
            return Integer.compare(rank(w), RELEASE);
        }
        if (q instanceof BigInteger) {
            return -1;
        }
        String v = (String) q;
        int c = Integer.compare(rank(w), rank(v));
        return c != 0 ? c : w.compareTo(v);
    }

    private static int rank(String word) {
        return switch (word) {
            case "dev", "snapshot" -> 0;
            case "alpha", "a" -> 1;
            case "beta", "b" -> 2;
            case "milestone", "m" -> 3;
            case "rc", "cr", "c", "pre", "preview" -> 4;
            case "final", "ga", "release", "r" -> RELEASE;
            case "post", "sp", "p" -> 7;
            default -> 5;
        };
    }

    /** Numbers and lower-case words, at most 32 of them (a longer version is cut, not rejected). */
    static List<Object> parts(String version) {
        String v = version.strip().toLowerCase(Locale.ROOT);
        int bang = v.indexOf('!');
        if (bang > 0 && v.substring(0, bang).chars().allMatch(Character::isDigit)) {
            v = v.substring(bang + 1);
        }
        if (v.startsWith("v") || v.startsWith("=")) {
            v = v.substring(1);
        }
        var parts = new ArrayList<Object>();
        int i = 0;
        while (i < v.length() && parts.size() < 32) {
            char ch = v.charAt(i);
            int start = i;
            if (isDigit(ch)) {
                while (i < v.length() && isDigit(v.charAt(i)) && i - start < 40) {
                    i++;
                }
                parts.add(new BigInteger(v.substring(start, i)));
            } else if (isLetter(ch)) {
                while (i < v.length() && isLetter(v.charAt(i)) && i - start < 40) {
                    i++;
                }
                parts.add(v.substring(start, i));
            } else {
                i++;
            }
        }
        // trailing zeros and release words say nothing: 1.0.0 = 1.0 = 1, 2.0.final = 2.0
        while (!parts.isEmpty() && (parts.get(parts.size() - 1) instanceof BigInteger n && n.signum() == 0
                || parts.get(parts.size() - 1) instanceof String w && rank(w) == RELEASE)) {
            parts.remove(parts.size() - 1);
        }
        return parts;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isLetter(char c) {
        return c >= 'a' && c <= 'z';
    }
}
