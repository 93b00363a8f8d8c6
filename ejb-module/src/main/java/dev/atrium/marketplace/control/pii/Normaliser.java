package dev.atrium.marketplace.control.pii;

import static dev.atrium.marketplace.control.pii.Chars.space;

import java.util.Locale;
import java.util.Map;

/**
 * Undoes the spellings that would hide personal data from the detectors, keeping for each character the range of the
 * original it stands for (see {@link Normalised}). Every step is one left-to-right pass with constant look-ahead.
 * <ol>
 * <li>Decoding, up to {@value #DECODING_LAYERS} layers (so {@code %2540} and {@code &amp;#64;} are decoded, a fourth
 * layer is not): percent-encoded ASCII ({@code %40}) and HTML character references, decimal, hexadecimal (either
 * case of {@code x} and of the digits) and a few named ones (any case), but only where they give what personal data
 * is written with: digits (of any script for references), {@code @}, separators ({@code space . - _ / + ( ) #}),
 * quotes, and the {@code % & ;} of a further layer. Anything else stays as written, so {@code %41} is no letter.</li>
 * <li>Shape: the full-width separators become ASCII ones; two or three spaces in a row count as one; the spaces of
 * {@code john @ example.com} (one to three on both sides of the {@code @}, a letter or digit after them) are
 * dropped.</li>
 * </ol>
 * Not decoded: UTF-8 sequences of percent escapes ({@code %EF%BC%A0}), JSON and other backslash escapes, spelled-out
 * forms ({@code bob [at] example [dot] com}).
 */
final class Normaliser {

    static final int DECODING_LAYERS = 3;

    /** What a percent escape or a character reference may decode to. */
    private static final String DECODABLE = "0123456789@ .-_/+()#\"%&;\u00A0";

    private static final Map<String, Character> NAMED = Map.ofEntries(Map.entry("commat", '@'),
            Map.entry("period", '.'), Map.entry("hyphen", '-'), Map.entry("dash", '-'), Map.entry("minus", '\u2212'),
            Map.entry("lowbar", '_'), Map.entry("sol", '/'), Map.entry("plus", '+'), Map.entry("lpar", '('),
            Map.entry("rpar", ')'), Map.entry("num", '#'), Map.entry("percnt", '%'), Map.entry("amp", '&'),
            Map.entry("semi", ';'), Map.entry("quot", '"'), Map.entry("nbsp", '\u00A0'), Map.entry("ensp", ' '),
            Map.entry("emsp", ' '), Map.entry("thinsp", '\u2009'), Map.entry("numsp", '\u2007'));

    /** The longest named reference above. */
    private static final int NAME_MAX = 6;

    /** The most digits of a numeric reference ({@code &#0000064;}). */
    private static final int REFERENCE_DIGITS_MAX = 8;

    private Normaliser() {
    }

    static Normalised normalise(String text) {
        Normalised normalised = Normalised.original(text);
        for (int layer = 0; layer < DECODING_LAYERS; layer++) {
            String current = normalised.text();
            if (current.indexOf('%') < 0 && current.indexOf('&') < 0) {
                break;
            }
            Normalised decoded = decode(normalised);
            if (decoded == null) {
                break;
            }
            normalised = decoded;
        }
        Normalised shaped = shape(normalised);
        return shaped == null ? normalised : shaped;
    }

    /** One layer of decoding; null when nothing was decoded. */
    private static Normalised decode(Normalised source) {
        String text = source.text();
        int n = text.length();
        Normalised.Builder out = null;
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            int decoded = c == '%' ? percent(text, i) : c == '&' ? reference(text, i) : -1;
            if (decoded < 0) {
                if (out != null) {
                    out.append(c, i, i + 1);
                }
                i++;
                continue;
            }
            if (out == null) {
                out = copy(source, i);
            }
            int length = decoded >>> 16;
            out.append((char) (decoded & 0xFFFF), i, i + length);
            i += length;
        }
        return out == null ? null : out.build();
    }

    /** A decoded character and the length of its escape, as {@code length << 16 | char}; -1 for none. */
    private static int percent(String text, int i) {
        if (i + 2 >= text.length()) {
            return -1;
        }
        int high = hex(text.charAt(i + 1));
        int low = hex(text.charAt(i + 2));
        if (high < 0 || low < 0) {
            return -1;
        }
        char c = (char) (high * 16 + low);
        return DECODABLE.indexOf(c) >= 0 ? 3 << 16 | c : -1;
    }

    private static int hex(char c) {
        return c < 128 ? Character.digit(c, 16) : -1;
    }

    private static int reference(String text, int i) {
        int n = text.length();
        if (i + 1 < n && text.charAt(i + 1) == '#') {
            int k = i + 2;
            int radix = 10;
            if (k < n && (text.charAt(k) == 'x' || text.charAt(k) == 'X')) {
                radix = 16;
                k++;
            }
            int digits = k;
            int value = 0;
            while (k < n && k - digits < REFERENCE_DIGITS_MAX && text.charAt(k) < 128
                    && Character.digit(text.charAt(k), radix) >= 0) {
                value = value * radix + Character.digit(text.charAt(k), radix);
                k++;
            }
            if (k == digits || k < n && text.charAt(k) < 128 && Character.digit(text.charAt(k), radix) >= 0
                    || value > 0xFFFF) {
                return -1;
            }
            if (k < n && text.charAt(k) == ';') {
                k++;
            }
            char c = (char) value;
            boolean wanted = DECODABLE.indexOf(c) >= 0 || Character.isDigit(c) || c == '\uFF20';
            return wanted ? (k - i) << 16 | c : -1;
        }
        int k = i + 1;
        while (k < n && k - i <= NAME_MAX && Chars.asciiLetter(text.charAt(k))) {
            k++;
        }
        if (k == i + 1 || k >= n || text.charAt(k) != ';') {
            return -1;
        }
        Character c = NAMED.get(text.substring(i + 1, k).toLowerCase(Locale.ROOT));
        return c == null ? -1 : (k + 1 - i) << 16 | c;
    }

    /** Full-width separators, runs of two or three spaces, spaces around an {@code @}; null when nothing changed. */
    private static Normalised shape(Normalised source) {
        String text = source.text();
        int n = text.length();
        Normalised.Builder out = null;
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            char ascii = ascii(c);
            if (ascii != 0) {
                out = out == null ? copy(source, i) : out;
                out.append(ascii, i, i + 1);
                i++;
                continue;
            }
            if (space(c)) {
                int end = i + 1;
                while (end < n && end - i < 4 && space(text.charAt(end))) {
                    end++;
                }
                int run = end - i;
                if (run <= 3 && EmailDetector.atSign(at(text, end)) && aroundAt(text, i, end)) {
                    // john @ example.com: the spaces on both sides go with the @
                    int after = end + 1;
                    int afterEnd = after;
                    while (afterEnd < n && space(text.charAt(afterEnd))) {
                        afterEnd++;
                    }
                    out = out == null ? copy(source, i) : out;
                    out.append(text.charAt(end), i, afterEnd);
                    i = afterEnd;
                    continue;
                }
                if (run == 2 || run == 3) {
                    out = out == null ? copy(source, i) : out;
                    out.append(' ', i, end);
                    i = end;
                    continue;
                }
                while (end < n && space(text.charAt(end))) {
                    end++;
                }
                if (out != null) {
                    for (int k = i; k < end; k++) {
                        out.append(text.charAt(k), k, k + 1);
                    }
                }
                i = end;
                continue;
            }
            if (out != null) {
                out.append(c, i, i + 1);
            }
            i++;
        }
        return out == null ? null : out.build();
    }

    private static char at(String text, int index) {
        return index < text.length() ? text.charAt(index) : 0;
    }

    /**
     * Whether the spaces [from, to) before an {@code @} at {@code to} belong to it: a local part's character
     * before them, one to three spaces after the {@code @} and then a letter or digit.
     */
    private static boolean aroundAt(String text, int from, int to) {
        if (from == 0) {
            return false;
        }
        char left = text.charAt(from - 1);
        if (!(EmailDetector.local(left) || left == '"') || Chars.invisible(left)) {
            return false;
        }
        int k = to + 1;
        while (k < text.length() && k - to - 1 < 4 && space(text.charAt(k))) {
            k++;
        }
        int spaces = k - to - 1;
        return spaces >= 1 && spaces <= 3 && k < text.length() && Character.isLetterOrDigit(text.charAt(k));
    }

    private static char ascii(char c) {
        return switch (c) {
            case '\uFF0E' -> '.';
            case '\uFF0D' -> '-';
            case '\uFF0F' -> '/';
            case '\uFF3F' -> '_';
            case '\uFF0B' -> '+';
            case '\uFF08' -> '(';
            case '\uFF09' -> ')';
            case '\uFF03' -> '#';
            case '\u3000' -> ' ';
            default -> 0;
        };
    }

    /** A builder holding the source's first {@code count} characters unchanged. */
    private static Normalised.Builder copy(Normalised source, int count) {
        Normalised.Builder out = new Normalised.Builder(source);
        String text = source.text();
        for (int k = 0; k < count; k++) {
            out.append(text.charAt(k), k, k + 1);
        }
        return out;
    }
}
