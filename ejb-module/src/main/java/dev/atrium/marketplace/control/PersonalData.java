package dev.atrium.marketplace.control;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * Finds and masks personal data (e-mail addresses, phone numbers, payment card numbers, IBANs) in the JSON an
 * agent is given and in the text it logs. Everything is a hand-written left-to-right scanner whose look-around is
 * bounded by a constant (a local part of 64 characters, a domain of 253, a card of 19 digits, an IBAN of 34
 * characters), so the work is linear in the input whatever the input is: no regular expression can backtrack here.
 *
 * <p>The rules, decided once (the README repeats them):
 * <ul>
 * <li>e-mail: {@code local@domain}, the local part letters, digits and {@code . _ % + -}, the domain at least two
 * labels of letters, digits and hyphens with a top-level label of two or more letters (so {@code a@10.0.0.1} is not
 * one); the full-width {@code ＠} counts as {@code @}. Spelled-out forms ({@code bob [at] example [dot] com}) are not
 * recognised.</li>
 * <li>card: 13 to 19 digits in a payment network's number range and length (see {@code network}), with the
 * Luhn check passing, written either as one group or in groups of four (the last one shorter) or as 4-6-5 / 4-6-4,
 * groups joined by a single space or hyphen.</li>
 * <li>IBAN: a country code of the IBAN registry, two check digits, then exactly that country's length, with the
 * ISO 7064 mod-97 check passing; written without spaces or with a space after every four characters; any case.</li>
 * <li>phone: international ({@code +} then 7 to 15 digits, joined by spaces, hyphens, dots, parentheses);
 * North-American ({@code 415-555-2671}, {@code (415) 555-2671}, {@code 415.555.2671}, an optional leading
 * {@code 1}); national with a trunk {@code 0} (9 to 15 digits in at least two groups, the first of 2 to 5 digits,
 * the last of at least 2: {@code 020 7946 0958}, {@code 06 12 34 56 78}, {@code 0151-12345678}). Not recognised:
 * local numbers without an area code, digits with no separator and no {@code +}.</li>
 * </ul>
 * Digits of any script count (Unicode {@code Nd}, e.g. full-width or Arabic-Indic), and invisible format characters
 * (zero-width spaces, bidirectional marks, soft hyphens: Unicode {@code Cf}) are skipped inside a candidate, so they
 * cannot hide a number. A run of digits that touches a letter or {@code _} is part of an identifier (a hash, a UUID,
 * {@code v1.2.3}, {@code 2024-01-15T10:00}) and is left alone. Dates, version strings, IP addresses, ISBNs and plain
 * numbers do not fit the shapes above. A found value is replaced by {@code [email]}, {@code [phone]}, {@code [card]}
 * or {@code [iban]}; masking is idempotent. In JSON, object keys are never changed (the input schema names them)
 * but {@link #find(JsonValue)} reads them too; an integral JSON number that is a card number becomes the string
 * {@code "[card]"} (the personal data matters more than the type).
 */
public final class PersonalData {

    /** The kinds, in the order they are reported. */
    private enum Kind {
        EMAIL, PHONE, CARD, IBAN;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        String mask() {
            return "[" + label() + "]";
        }
    }

    /** A masked JSON value and the distinct kinds that were masked (email, phone, card, iban; that order). */
    public record Masking(JsonValue value, List<String> kinds) {
        public Masking {
            kinds = List.copyOf(kinds);
        }
    }

    /** A masked text and the distinct kinds that were masked. */
    public record TextMasking(String text, List<String> kinds) {
        public TextMasking {
            kinds = List.copyOf(kinds);
        }
    }

    private PersonalData() {
    }

    /** Masks personal data inside every string (and card numbers written as JSON numbers); keys are kept. */
    public static Masking mask(JsonValue value) {
        EnumSet<Kind> found = EnumSet.noneOf(Kind.class);
        JsonValue masked = maskValue(value, found);
        return new Masking(masked, labels(found));
    }

    /** The kinds of personal data in the value, keys included, without changing anything. */
    public static List<String> find(JsonValue value) {
        EnumSet<Kind> found = EnumSet.noneOf(Kind.class);
        findValue(value, found);
        return labels(found);
    }

    /** Masks personal data in plain text (an agent's log). */
    public static TextMasking maskText(String text) {
        EnumSet<Kind> found = EnumSet.noneOf(Kind.class);
        String masked = text == null ? null : maskString(text, found);
        return new TextMasking(masked, labels(found));
    }

    private static List<String> labels(Set<Kind> found) {
        return found.stream().map(Kind::label).toList();
    }

    private static JsonValue maskValue(JsonValue value, Set<Kind> found) {
        if (value == null) {
            return null;
        }
        switch (value.getValueType()) {
            case OBJECT -> {
                JsonObjectBuilder builder = JSON.createObjectBuilder();
                for (Map.Entry<String, JsonValue> entry : ((JsonObject) value).entrySet()) {
                    builder.add(entry.getKey(), maskValue(entry.getValue(), found));
                }
                return builder.build();
            }
            case ARRAY -> {
                JsonArrayBuilder builder = JSON.createArrayBuilder();
                for (JsonValue item : (JsonArray) value) {
                    builder.add(maskValue(item, found));
                }
                return builder.build();
            }
            case STRING -> {
                String text = ((JsonString) value).getString();
                int before = found.size();
                String masked = maskString(text, found);
                return masked.equals(text) && found.size() == before ? value : JSON.createValue(masked);
            }
            case NUMBER -> {
                if (isCardNumber((JsonNumber) value)) {
                    found.add(Kind.CARD);
                    return JSON.createValue(Kind.CARD.mask());
                }
                return value;
            }
            default -> {
                return value;
            }
        }
    }

    private static void findValue(JsonValue value, Set<Kind> found) {
        if (value == null) {
            return;
        }
        switch (value.getValueType()) {
            case OBJECT -> {
                for (Map.Entry<String, JsonValue> entry : ((JsonObject) value).entrySet()) {
                    maskString(entry.getKey(), found);
                    findValue(entry.getValue(), found);
                }
            }
            case ARRAY -> {
                for (JsonValue item : (JsonArray) value) {
                    findValue(item, found);
                }
            }
            case STRING -> maskString(((JsonString) value).getString(), found);
            case NUMBER -> {
                if (isCardNumber((JsonNumber) value)) {
                    found.add(Kind.CARD);
                }
            }
            default -> {
                // true, false, null carry nothing
            }
        }
    }

    private static boolean isCardNumber(JsonNumber number) {
        BigDecimal decimal = number.bigDecimalValue();
        if (decimal.signum() <= 0 || decimal.scale() > 0 && decimal.stripTrailingZeros().scale() > 0) {
            return false;
        }
        if (decimal.precision() - decimal.scale() > 19) {
            return false;
        }
        BigInteger integer = decimal.toBigIntegerExact();
        String digits = integer.toString();
        return isCard(digits, List.of(digits.length()));
    }

    /** The three passes; each later pass sees the earlier masks, which contain no digit and no {@code @}. */
    private static String maskString(String text, Set<Kind> found) {
        String masked = Emails.mask(text, found);
        masked = Ibans.mask(masked, found);
        return Numbers.mask(masked, found);
    }

    // ---------------------------------------------------------------- characters

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
        for (int i = 0; i < groups.size() - 1; i++) {
            if (groups.get(i) != 4) {
                return false;
            }
        }
        int last = groups.get(groups.size() - 1);
        return last >= 1 && last <= 4;
    }

    // ---------------------------------------------------------------- e-mail

    private static final class Emails {

        private static final int LOCAL_MAX = 64;
        private static final int DOMAIN_MAX = 253;

        static boolean atSign(char c) {
            return c == '@' || c == '\uFF20';
        }

        static boolean local(char c) {
            return Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'
                    || invisible(c);
        }

        static boolean domain(char c) {
            return Character.isLetterOrDigit(c) || c == '.' || c == '-' || invisible(c);
        }

        static String mask(String text, Set<Kind> found) {
            StringBuilder out = null;
            int copied = 0;
            int n = text.length();
            for (int i = 0; i < n; i++) {
                if (!atSign(text.charAt(i))) {
                    continue;
                }
                int start = i;
                while (start > copied && i - start < LOCAL_MAX && local(text.charAt(start - 1))) {
                    start--;
                }
                while (start < i && (text.charAt(start) == '.' || invisible(text.charAt(start)))) {
                    start++;
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
                found.add(Kind.EMAIL);
                if (out == null) {
                    out = new StringBuilder(n);
                }
                out.append(text, copied, start).append(Kind.EMAIL.mask());
                copied = end;
                i = end - 1;
            }
            if (out == null) {
                return text;
            }
            return out.append(text, copied, n).toString();
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

    // ---------------------------------------------------------------- IBAN

    private static final class Ibans {

        /** The IBAN registry's countries and their IBAN lengths. */
        private static final Map<String, Integer> LENGTHS = lengths("AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 "
                + "BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18 DO28 EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 "
                + "GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 "
                + "LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 MU30 NI28 NL18 NO15 OM23 PK24 PL28 PS29 PT25 "
                + "QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 SM27 SO23 ST25 SV28 TL23 TN24 TR26 UA29 VA22 "
                + "VG24 XK20");

        private static Map<String, Integer> lengths(String table) {
            var map = new java.util.HashMap<String, Integer>();
            for (String entry : table.trim().split("\\s+")) {
                map.put(entry.substring(0, 2), Integer.parseInt(entry.substring(2)));
            }
            return Map.copyOf(map);
        }

        static String mask(String text, Set<Kind> found) {
            StringBuilder out = null;
            int copied = 0;
            int n = text.length();
            for (int i = 0; i + 1 < n; i++) {
                char c = text.charAt(i);
                if (!isAsciiLetter(c) || word(before(text, i))) {
                    continue;
                }
                int end = match(text, i);
                if (end < 0) {
                    continue;
                }
                found.add(Kind.IBAN);
                if (out == null) {
                    out = new StringBuilder(n);
                }
                out.append(text, copied, i).append(Kind.IBAN.mask());
                copied = end;
                i = end - 1;
            }
            if (out == null) {
                return text;
            }
            return out.append(text, copied, n).toString();
        }

        private static boolean isAsciiLetter(char c) {
            return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z';
        }

        private static boolean isAsciiAlnum(char c) {
            return isAsciiLetter(c) || c >= '0' && c <= '9';
        }

        /**
         * The end of an IBAN starting at {@code start}, or -1. Spaces are allowed only as one space after every
         * four characters (and then after each four), the printed form.
         */
        private static int match(String text, int start) {
            int n = text.length();
            StringBuilder chars = new StringBuilder(34);
            int length = 0;
            boolean spaced = false;
            boolean afterSpace = false;
            int i = start;
            while (i < n) {
                char c = text.charAt(i);
                if (invisible(c)) {
                    i++;
                    continue;
                }
                int count = chars.length();
                if (space(c)) {
                    boolean allowed = length > 0 && count % 4 == 0 && count < length && (count == 4 || spaced)
                            && !afterSpace && isAsciiAlnum(at(text, i + 1));
                    if (!allowed) {
                        break;
                    }
                    spaced = true;
                    afterSpace = true;
                    i++;
                    continue;
                }
                if (!isAsciiAlnum(c)) {
                    break;
                }
                if (spaced && count % 4 == 0 && !afterSpace) {
                    return -1;
                }
                afterSpace = false;
                chars.append(Character.toUpperCase(c));
                i++;
                count++;
                if (count == 2) {
                    Integer known = LENGTHS.get(chars.toString());
                    if (known == null) {
                        return -1;
                    }
                    length = known;
                } else if (count > 2 && count <= 4 && !(c >= '0' && c <= '9')) {
                    return -1;
                }
                if (count == length) {
                    break;
                }
            }
            if (length == 0 || chars.length() != length || word(at(text, i))) {
                return -1;
            }
            return mod97(chars) == 1 ? i : -1;
        }

        private static int mod97(CharSequence iban) {
            String rearranged = iban.subSequence(4, iban.length()).toString() + iban.subSequence(0, 4);
            int remainder = 0;
            for (int k = 0; k < rearranged.length(); k++) {
                int value = Character.digit(rearranged.charAt(k), 36);
                if (value < 0) {
                    return -1;
                }
                remainder = value < 10 ? (remainder * 10 + value) % 97 : (remainder * 100 + value) % 97;
            }
            return remainder;
        }
    }

    // ---------------------------------------------------------------- digits: cards and phones

    private static final class Numbers {

        /** One group of digits in a run: where it is, its ASCII digits, and what joins it to the previous group. */
        private record Group(int start, int end, String digits, String joiner) {

            boolean afterSpace() {
                for (int i = 0; i < joiner.length(); i++) {
                    if (space(joiner.charAt(i))) {
                        return true;
                    }
                }
                return false;
            }
        }

        /** The most groups a card (4-4-4-4-3) or a phone number (+33 6 12 34 56 78) is written in. */
        private static final int MAX_GROUPS = 6;

        /** A chunk: the groups between two whitespace joiners, [first, last] indexes into the run's groups. */
        private record Chunk(int first, int last, int start) {
        }

        static String mask(String text, Set<Kind> found) {
            StringBuilder out = null;
            int copied = 0;
            int n = text.length();
            int i = 0;
            while (i < n) {
                char c = text.charAt(i);
                boolean opener = (c == '+' || c == '(') && digit(at(text, i + 1));
                if (!(digit(c) || opener) || word(before(text, i))) {
                    i++;
                    continue;
                }
                List<Group> groups = new ArrayList<>();
                int end = run(text, i, groups);
                if (word(at(text, end)) || groups.isEmpty()) {
                    i = end;
                    continue;
                }
                List<int[]> spans = new ArrayList<>();
                List<Kind> kinds = new ArrayList<>();
                classify(text, i, groups, spans, kinds);
                for (int k = 0; k < spans.size(); k++) {
                    found.add(kinds.get(k));
                    if (out == null) {
                        out = new StringBuilder(n);
                    }
                    out.append(text, copied, spans.get(k)[0]).append(kinds.get(k).mask());
                    copied = spans.get(k)[1];
                }
                i = end;
            }
            if (out == null) {
                return text;
            }
            return out.append(text, copied, n).toString();
        }

        private static boolean separator(char c) {
            return space(c) || hyphen(c) || c == '.' || c == '(' || c == ')';
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

        private static void classify(String text, int runStart, List<Group> groups, List<int[]> spans,
                List<Kind> kinds) {
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
                        spans.add(new int[] {from.start(), end});
                        kinds.add(kind);
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
            int count = 0;
            for (int g = chunk.first(); g <= chunk.last(); g++) {
                count += groups.get(g).digits().length();
            }
            return count;
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

        private static boolean cardJoiners(List<String> joiners) {
            for (String joiner : joiners) {
                if (joiner.length() != 1 || !(space(joiner.charAt(0)) || hyphen(joiner.charAt(0)))) {
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

        private static boolean phone(String digits, List<Integer> sizes, List<String> joiners, boolean plus) {
            int n = digits.length();
            boolean dotted = false;
            for (String joiner : joiners) {
                if (joiner.indexOf('.') >= 0) {
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
    }
}
