package dev.atrium.marketplace.entity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A dependency's version range, as an agent card declares it: terms separated by spaces or commas, all of which must
 * hold. A term is {@code *} (any version), a comparison {@code >=}, {@code >}, {@code <=}, {@code <}, {@code =} (or
 * none, meaning exactly) with a full {@code MAJOR.MINOR.PATCH}, a caret {@code ^1.2.3} (npm's: up to the next major,
 * or for 0.x the next minor, for 0.0.x the next patch) or a tilde {@code ~1.2.3} (up to the next minor). Read from
 * untrusted cards: at most {@value #MAX_LENGTH} characters and {@value #MAX_TERMS} terms, only ASCII digits, and
 * anything else is an {@link IllegalArgumentException} whose message says what is wrong.
 */
public final class VersionRange {

    public static final int MAX_LENGTH = 200;
    public static final int MAX_TERMS = 16;

    private static final Pattern TERM = Pattern.compile("(\\^|~|>=|<=|>|<|=)?(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})"
            + "\\.(0|[1-9][0-9]{0,8})");

    private enum Op {
        GE, GT, LE, LT, EQ
    }

    private record Bound(Op op, SemanticVersion version) {

        boolean holds(SemanticVersion v) {
            int c = v.compareTo(version);
            return switch (op) {
                case GE -> c >= 0;
                case GT -> c > 0;
                case LE -> c <= 0;
                case LT -> c < 0;
                case EQ -> c == 0;
            };
        }

        @Override
        public String toString() {
            return switch (op) {
                case GE -> ">=";
                case GT -> ">";
                case LE -> "<=";
                case LT -> "<";
                case EQ -> "=";
            } + version;
        }
    }

    private final String text;
    private final List<Bound> bounds;

    private VersionRange(String text, List<Bound> bounds) {
        this.text = text;
        this.bounds = List.copyOf(bounds);
    }

    public static VersionRange parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("a version range is required, e.g. >=1.0.0 or ^1.2.0");
        }
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("a version range has at most " + MAX_LENGTH + " characters");
        }
        // an operator may stand apart from its version (">= 1.0.0"): join them before splitting into terms
        String joined = text.strip().replaceAll("(>=|<=|>|<|=|\\^|~)[ \\t]+", "$1");
        String[] terms = joined.split("[ \\t]*,[ \\t]*|[ \\t]+");
        if (terms.length > MAX_TERMS) {
            throw new IllegalArgumentException("a version range has at most " + MAX_TERMS + " terms");
        }
        var bounds = new ArrayList<Bound>();
        for (String term : terms) {
            if (term.equals("*")) {
                continue;
            }
            var m = TERM.matcher(term);
            if (!m.matches()) {
                throw new IllegalArgumentException("'" + shown(term) + "' is not a version term: use *, a full "
                        + "MAJOR.MINOR.PATCH with >=, >, <=, <, = or none, ^ or ~");
            }
            var v = new SemanticVersion(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                    Integer.parseInt(m.group(4)));
            String op = m.group(1) == null ? "=" : m.group(1);
            switch (op) {
                case "^" -> {
                    bounds.add(new Bound(Op.GE, v));
                    bounds.add(new Bound(Op.LT, v.major() > 0 ? new SemanticVersion(v.major() + 1, 0, 0)
                            : v.minor() > 0 ? new SemanticVersion(0, v.minor() + 1, 0)
                            : new SemanticVersion(0, 0, v.patch() + 1)));
                }
                case "~" -> {
                    bounds.add(new Bound(Op.GE, v));
                    bounds.add(new Bound(Op.LT, new SemanticVersion(v.major(), v.minor() + 1, 0)));
                }
                case ">=" -> bounds.add(new Bound(Op.GE, v));
                case ">" -> bounds.add(new Bound(Op.GT, v));
                case "<=" -> bounds.add(new Bound(Op.LE, v));
                case "<" -> bounds.add(new Bound(Op.LT, v));
                default -> bounds.add(new Bound(Op.EQ, v));
            }
        }
        return new VersionRange(text.strip(), bounds);
    }

    public boolean contains(SemanticVersion version) {
        return bounds.stream().allMatch(b -> b.holds(version));
    }

    /** The range as written. */
    @Override
    public String toString() {
        return text;
    }

    /** The range as its bounds, e.g. {@code >=1.2.0 <2.0.0}; empty for any version. */
    public String bounds() {
        return String.join(" ", bounds.stream().map(Bound::toString).toList());
    }

    private static String shown(String term) {
        String printable = term.codePoints().limit(30)
                .mapToObj(c -> c < 0x20 || c == 0x7f ? String.format(Locale.ROOT, "\\u%04x", c)
                        : new String(Character.toChars(c)))
                .reduce("", String::concat);
        return term.length() > 30 ? printable + "…" : printable;
    }
}
