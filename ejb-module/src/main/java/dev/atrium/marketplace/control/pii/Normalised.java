package dev.atrium.marketplace.control.pii;

import java.util.Arrays;

/**
 * Text as the detectors read it, and for each of its characters the characters [from, to) of the original text it
 * stands for, so that what is found is masked in the original spelling. Without maps it is the original itself.
 */
final class Normalised {

    private final String text;
    private final int[] from;
    private final int[] to;

    private Normalised(String text, int[] from, int[] to) {
        this.text = text;
        this.from = from;
        this.to = to;
    }

    static Normalised original(String text) {
        return new Normalised(text, null, null);
    }

    String text() {
        return text;
    }

    /** Where the character at {@code index} begins in the original text. */
    int from(int index) {
        return from == null ? index : from[index];
    }

    /** Where the character at {@code index} ends in the original text. */
    int to(int index) {
        return to == null ? index + 1 : to[index];
    }

    /** Builds a text whose characters each stand for a range of characters of an earlier {@link Normalised}. */
    static final class Builder {

        private final Normalised source;
        private final StringBuilder text;
        private int[] from;
        private int[] to;

        Builder(Normalised source) {
            this.source = source;
            int capacity = Math.max(16, source.text.length());
            this.text = new StringBuilder(capacity);
            this.from = new int[capacity];
            this.to = new int[capacity];
        }

        /** Appends {@code c}, standing for the source's characters [start, end). */
        Builder append(char c, int start, int end) {
            int at = text.length();
            if (at == from.length) {
                from = Arrays.copyOf(from, at * 2);
                to = Arrays.copyOf(to, at * 2);
            }
            text.append(c);
            from[at] = source.from(start);
            to[at] = source.to(end - 1);
            return this;
        }

        /** Appends each character of {@code s}, all standing for the source's characters [start, end). */
        Builder append(String s, int start, int end) {
            for (int i = 0; i < s.length(); i++) {
                append(s.charAt(i), start, end);
            }
            return this;
        }

        Normalised build() {
            return new Normalised(text.toString(), from, to);
        }
    }
}
