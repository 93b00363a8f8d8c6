package dev.atrium.marketplace.control.pii;

import static dev.atrium.marketplace.control.pii.Chars.at;
import static dev.atrium.marketplace.control.pii.Chars.before;
import static dev.atrium.marketplace.control.pii.Chars.digit;
import static dev.atrium.marketplace.control.pii.Chars.hyphen;
import static dev.atrium.marketplace.control.pii.Chars.invisible;
import static dev.atrium.marketplace.control.pii.Chars.space;
import static dev.atrium.marketplace.control.pii.Chars.word;

import java.util.ArrayList;
import java.util.List;

/**
 * Card and phone numbers, from runs of digit groups joined by at most two visible separators.
 * <ul>
 * <li>card: 13 to 19 digits in a payment network's number range and length (see {@link #network}), with the Luhn
 * check passing, written either as one group or in groups of four (the last one shorter) or as 4-6-5 / 4-6-4, groups
 * joined by a space (two at most), a hyphen, a dot, an underscore or a slash.</li>
 * <li>phone: international ({@code +} then 7 to 15 digits, joined by spaces, hyphens, dots, slashes,
 * parentheses); North-American ({@code 415-555-2671}, {@code (415) 555-2671}, {@code 415.555.2671}, an optional
 * leading {@code 1}); national with a trunk {@code 0} (9 to 15 digits in at least two groups, the first of 2 to 5
 * digits, the last of at least 2: {@code 020 7946 0958}, {@code 06 12 34 56 78}, {@code 0151-12345678}); an
 * extension ({@code x5}, {@code ext. 12}, {@code #3}) belongs to the number. Not recognised: local numbers without an
 * area code, digits with no separator and no {@code +}.</li>
 * </ul>
 * A run that touches a letter or {@code _}, or is tied by a hyphen to a hexadecimal word (a UUID's groups), is part
 * of an identifier (a hash, a UUID, {@code v1.2.3}, {@code 2024-01-15T10:00}, {@code tok_4111…}) and is left alone;
 * an underscore between two digit groups joins them.
 */
final class NumberDetector implements Detector {

    /** One group of digits in a run: where it is, its ASCII digits, and what joins it to the previous group. */
    private record Group(int start, int end, String digits, String joiner) {

        boolean afterSpace() {
            return joiner.chars().anyMatch(c -> space((char) c));
        }
    }

    /** The most groups a card (4-4-4-4-3) or a phone number (+33 6 12 34 56 78) is written in. */
    private static final int MAX_GROUPS = 6;

    /** The longest extension, in digits. */
    private static final int EXTENSION_MAX = 6;

    /** A chunk: the groups between two whitespace joiners, [first, last] indexes into the run's groups. */
    private record Chunk(int first, int last, int start) {
    }

    @Override
    public void find(String text, List<Found> into) {
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            boolean opener = (c == '+' || c == '(') && digit(at(text, i + 1));
            if (!(digit(c) || opener) || word(before(text, i)) || hyphenated(text, i - 1, -1)) {
                i++;
                continue;
            }
            List<Group> groups = new ArrayList<>();
            int end = run(text, i, groups);
            if (groups.isEmpty()) {
                i = end;
                continue;
            }
            int extension = extensionEnd(text, end);
            boolean glued = word(at(text, end)) || hyphenated(text, end, 1);
            if (glued && extension < 0) {
                i = end;
                continue;
            }
            List<Found> found = new ArrayList<>();
            classify(text, i, groups, found);
            if (extension >= 0) {
                Found last = found.isEmpty() ? null : found.get(found.size() - 1);
                boolean phoneToTheEnd = last != null && last.kind() == Kind.PHONE && last.end() >= end;
                if (phoneToTheEnd) {
                    found.set(found.size() - 1, new Found(last.start(), extension, Kind.PHONE));
                    end = extension;
                } else if (glued) {
                    i = end;
                    continue;
                }
            }
            into.addAll(found);
            i = end;
        }
    }

    /**
     * Whether a hyphen at {@code hyphen} ties the run to a word of 4 to 12 hexadecimal characters beyond it (going
     * {@code step}), as the groups of a UUID are tied ({@code a456e89b-0123-4567-8901-abcdef012345}); a word such as
     * {@code Mobile-} or {@code -home} does not tie.
     */
    private static boolean hyphenated(String text, int hyphen, int step) {
        if (hyphen < 0 || hyphen >= text.length() || !hyphen(text.charAt(hyphen))) {
            return false;
        }
        int length = 0;
        for (int k = hyphen + step; k >= 0 && k < text.length() && Character.isLetterOrDigit(text.charAt(k));
                k += step) {
            if (Character.digit(text.charAt(k), 16) < 0 || text.charAt(k) >= 128 || ++length > 12) {
                return false;
            }
        }
        return length >= 4;
    }

    private static boolean separator(char c) {
        return space(c) || hyphen(c) || c == '.' || c == '(' || c == ')' || c == '/' || c == '_';
    }

    /** Reads a run from {@code start}; digits joined by at most two visible separators. Returns its end. */
    private static int run(String text, int start, List<Group> groups) {
        int n = text.length();
        int i = start;
        StringBuilder joiner = new StringBuilder();
        while (i < n && !digit(text.charAt(i))) {
            char c = text.charAt(i);
            if (!invisible(c)) {
                joiner.append(c);
            }
            i++;
        }
        int end = i;
        while (i < n) {
            int groupStart = i;
            StringBuilder digits = new StringBuilder();
            int groupEnd = i;
            while (i < n && (digit(text.charAt(i)) || invisible(text.charAt(i)))) {
                char c = text.charAt(i);
                if (digit(c)) {
                    digits.append((char) ('0' + Character.digit(c, 10)));
                    groupEnd = i + 1;
                }
                i++;
            }
            groups.add(new Group(groupStart, groupEnd, digits.toString(), joiner.toString()));
            end = groupEnd;
            joiner.setLength(0);
            int j = groupEnd;
            int visible = 0;
            while (j < n && visible <= 2 && (separator(text.charAt(j)) || invisible(text.charAt(j)))) {
                if (!invisible(text.charAt(j))) {
                    visible++;
                    joiner.append(text.charAt(j));
                }
                j++;
            }
            if (visible == 0 || visible > 2 || j >= n || !digit(text.charAt(j))) {
                break;
            }
            i = j;
        }
        return end;
    }

    /**
     * The end of a phone extension right after {@code from} (up to two spaces, {@code x}, {@code ext},
     * {@code ext.}, {@code extn}, {@code extension} or {@code #}, a space at most, 1 to 6 digits), or -1.
     */
    static int extensionEnd(String text, int from) {
        int n = text.length();
        int k = from;
        for (int spaces = 0; k < n && spaces < 2 && space(text.charAt(k)); spaces++) {
            k++;
        }
        int marker = marker(text, k);
        if (marker < 0) {
            return -1;
        }
        k += marker;
        if (k < n && (text.charAt(k) == '.' || text.charAt(k) == ':') && marker > 1) {
            k++;
        }
        if (k < n && space(text.charAt(k))) {
            k++;
        }
        int digits = k;
        while (k < n && k - digits < EXTENSION_MAX && text.charAt(k) >= '0' && text.charAt(k) <= '9') {
            k++;
        }
        if (k == digits || k < n && word(text.charAt(k))) {
            return -1;
        }
        return k;
    }

    private static int marker(String text, int k) {
        for (String marker : new String[] {"extension", "extn", "ext", "x", "#"}) {
            if (text.regionMatches(true, k, marker, 0, marker.length())) {
                return marker.length();
            }
        }
        return -1;
    }

    private static void classify(String text, int runStart, List<Group> groups, List<Found> into) {
        List<Chunk> chunks = new ArrayList<>();
        int first = 0;
        int chunkStart = runStart;
        for (int g = 1; g <= groups.size(); g++) {
            if (g == groups.size() || groups.get(g).afterSpace()) {
                chunks.add(new Chunk(first, g - 1, chunkStart));
                if (g < groups.size()) {
                    Group next = groups.get(g);
                    String joiner = next.joiner();
                    int lastSpace = -1;
                    for (int k = 0; k < joiner.length(); k++) {
                        if (space(joiner.charAt(k))) {
                            lastSpace = k;
                        }
                    }
                    chunkStart = startOfJoinerTail(text, groups.get(g - 1).end(), next.start(),
                            joiner.length() - lastSpace - 1);
                    first = g;
                }
            }
        }
        boolean plus = text.charAt(runStart) == '+';
        int[] chunkDigits = new int[chunks.size()];
        for (int c = 0; c < chunks.size(); c++) {
            chunkDigits[c] = digitsOf(groups, chunks.get(c));
        }
        int a = 0;
        while (a < chunks.size()) {
            boolean matched = false;
            int digits = 0;
            int windowGroups = 0;
            int b = a;
            // a window holds at most 19 digits (a card) in at most 6 groups (+33 6 12 34 56 78): bounded work
            while (b < chunks.size() && digits + chunkDigits[b] <= 19
                    && windowGroups + chunks.get(b).last() - chunks.get(b).first() + 1 <= MAX_GROUPS) {
                digits += chunkDigits[b];
                windowGroups += chunks.get(b).last() - chunks.get(b).first() + 1;
                b++;
            }
            for (int last = b - 1; last >= a && !matched; last--) {
                // the shortest thing masked is an international number of 7 digits
                Kind kind = digits < 7 ? null : kindOf(groups, chunks, a, last, plus && a == 0);
                digits -= chunkDigits[last];
                if (kind != null) {
                    Chunk from = chunks.get(a);
                    int end = groups.get(chunks.get(last).last()).end();
                    if (end < text.length() && text.charAt(end) == ')' && opened(text, from.start(), end)) {
                        end++;
                    }
                    into.add(new Found(from.start(), end, kind));
                    a = last + 1;
                    matched = true;
                }
            }
            if (!matched) {
                a++;
            }
        }
    }

    /** Whether a parenthesis opened in [from, to) is still open, so the closing one belongs to the span. */
    private static boolean opened(String text, int from, int to) {
        int open = 0;
        for (int k = from; k < to; k++) {
            if (text.charAt(k) == '(') {
                open++;
            } else if (text.charAt(k) == ')') {
                open--;
            }
        }
        return open > 0;
    }

    /** The index where the last {@code visibleTail} visible characters before {@code to} begin. */
    private static int startOfJoinerTail(String text, int from, int to, int visibleTail) {
        int k = to;
        int seen = 0;
        while (k > from && seen < visibleTail) {
            k--;
            if (!invisible(text.charAt(k))) {
                seen++;
            }
        }
        return k;
    }

    private static int digitsOf(List<Group> groups, Chunk chunk) {
        return groups.subList(chunk.first(), chunk.last() + 1).stream().mapToInt(g -> g.digits().length()).sum();
    }

    private static Kind kindOf(List<Group> groups, List<Chunk> chunks, int a, int b, boolean plus) {
        int firstGroup = chunks.get(a).first();
        int lastGroup = chunks.get(b).last();
        StringBuilder digits = new StringBuilder();
        List<Integer> sizes = new ArrayList<>();
        List<String> joiners = new ArrayList<>();
        for (int g = firstGroup; g <= lastGroup; g++) {
            digits.append(groups.get(g).digits());
            sizes.add(groups.get(g).digits().length());
            if (g > firstGroup) {
                joiners.add(groups.get(g).joiner());
            }
        }
        String all = digits.toString();
        if (!plus && cardJoiners(joiners) && isCard(all, sizes)) {
            return Kind.CARD;
        }
        for (int c = a; c <= b; c++) {
            if (dateShaped(groups, chunks.get(c))) {
                return null;
            }
        }
        return phone(all, sizes, joiners, plus) ? Kind.PHONE : null;
    }

    /** Between card groups: one or two spaces, or one hyphen, dot, underscore or slash. */
    private static boolean cardJoiners(List<String> joiners) {
        for (String joiner : joiners) {
            boolean spaces = !joiner.isEmpty() && joiner.length() <= 2 && joiner.chars().allMatch(c -> space((char) c));
            boolean one = joiner.length() == 1 && (hyphen(joiner.charAt(0)) || ".-_/".indexOf(joiner.charAt(0)) >= 0);
            if (!spaces && !one) {
                return false;
            }
        }
        return true;
    }

    private static boolean dateShaped(List<Group> groups, Chunk chunk) {
        if (chunk.last() - chunk.first() != 2) {
            return false;
        }
        int x = groups.get(chunk.first()).digits().length();
        int y = groups.get(chunk.first() + 1).digits().length();
        int z = groups.get(chunk.last()).digits().length();
        boolean small = y <= 2;
        return small && (x == 4 && z <= 2 || x <= 2 && z == 4);
    }

    /** Phones are not written with underscores; dots and slashes only in a few shapes unless after a {@code +}. */
    private static boolean phone(String digits, List<Integer> sizes, List<String> joiners, boolean plus) {
        int n = digits.length();
        boolean dotted = false;
        for (String joiner : joiners) {
            if (joiner.indexOf('_') >= 0) {
                return false;
            }
            if (joiner.indexOf('.') >= 0 || joiner.indexOf('/') >= 0) {
                dotted = true;
            }
        }
        if (plus) {
            return n >= 7 && n <= 15 && (!dotted || sizes.size() >= 3);
        }
        if (dotted && !dotShape(sizes)) {
            return false;
        }
        if (sizes.equals(List.of(3, 3, 4)) && nanp(digits, 0)
                || sizes.equals(List.of(1, 3, 3, 4)) && digits.charAt(0) == '1' && nanp(digits, 1)) {
            return true;
        }
        return digits.charAt(0) == '0' && n >= 9 && n <= 15 && sizes.size() >= 2 && sizes.get(0) >= 2
                && sizes.get(0) <= 5 && sizes.get(sizes.size() - 1) >= 2;
    }

    /** North-American numbers: area code and exchange begin with 2 to 9. */
    private static boolean nanp(String digits, int from) {
        return digits.charAt(from) >= '2' && digits.charAt(from + 3) >= '2';
    }

    private static boolean dotShape(List<Integer> sizes) {
        return sizes.equals(List.of(3, 3, 4)) || sizes.equals(List.of(1, 3, 3, 4))
                || sizes.equals(List.of(2, 2, 2, 2, 2));
    }

    static boolean luhn(CharSequence digits) {
        int sum = 0;
        boolean doubled = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            int d = digits.charAt(i) - '0';
            if (doubled) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
            doubled = !doubled;
        }
        return sum % 10 == 0;
    }

    /** ASCII digits of a card and their group sizes. */
    static boolean isCard(String digits, List<Integer> groups) {
        int n = digits.length();
        if (n < 13 || n > 19 || !network(digits)) {
            return false;
        }
        return cardGrouping(groups) && luhn(digits);
    }

    /**
     * The payment networks' number ranges and lengths, so that long timestamps, order numbers and ISBNs starting
     * with the same digits are not taken for cards: Mastercard 2221–2720 and 51–55 (16), Amex 34/37 (15), Diners
     * 30/36/38/39 (14–19), JCB 35 (16–19), Visa 4 (13, 16, 19), Maestro 50/56–59 and Discover/UnionPay/Maestro 6
     * (13–19).
     */
    private static boolean network(String digits) {
        int n = digits.length();
        int two = (digits.charAt(0) - '0') * 10 + digits.charAt(1) - '0';
        int four = two * 100 + (digits.charAt(2) - '0') * 10 + digits.charAt(3) - '0';
        return switch (digits.charAt(0)) {
            case '2' -> n == 16 && four >= 2221 && four <= 2720;
            case '3' -> two == 34 || two == 37 ? n == 15
                    : two == 30 || two == 36 || two == 38 || two == 39 ? n >= 14 : two == 35 && n >= 16;
            case '4' -> n == 13 || n == 16 || n == 19;
            case '5' -> two >= 51 && two <= 55 ? n == 16 : true;
            case '6' -> true;
            default -> false;
        };
    }

    private static boolean cardGrouping(List<Integer> groups) {
        if (groups.size() == 1) {
            return true;
        }
        if (groups.equals(List.of(4, 6, 5)) || groups.equals(List.of(4, 6, 4))) {
            return true;
        }
        int last = groups.get(groups.size() - 1);
        return groups.subList(0, groups.size() - 1).stream().allMatch(g -> g == 4) && last >= 1 && last <= 4;
    }
}
