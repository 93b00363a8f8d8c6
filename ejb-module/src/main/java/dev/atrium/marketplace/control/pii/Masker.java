package dev.atrium.marketplace.control.pii;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Masks personal data in a text: the text is normalised ({@link Normaliser}), the detectors run on it one after the
 * other (e-mail, then IBAN, then card and phone numbers), each seeing the masks of the earlier ones (no digit, no
 * {@code @}), and every value found is replaced in the original text, whatever its spelling there, by
 * {@code [email]}, {@code [phone]}, {@code [card]} or {@code [iban]}. Masking is idempotent.
 */
public final class Masker {

    private static final List<Detector> DETECTORS = List.of(new EmailDetector(), new IbanDetector(),
            new NumberDetector());

    private Masker() {
    }

    /** The masked text (the same instance when nothing was found); the kinds found are added to {@code found}. */
    public static String mask(String text, Set<Kind> found) {
        Normalised current = Normaliser.normalise(text);
        List<Found> masked = new ArrayList<>();
        List<Found> spans = new ArrayList<>();
        for (Detector detector : DETECTORS) {
            spans.clear();
            detector.find(current.text(), spans);
            if (spans.isEmpty()) {
                continue;
            }
            String source = current.text();
            Normalised.Builder next = new Normalised.Builder(current);
            int copied = 0;
            for (Found span : spans) {
                for (int k = copied; k < span.start(); k++) {
                    next.append(source.charAt(k), k, k + 1);
                }
                next.append(span.kind().mask(), span.start(), span.end());
                masked.add(new Found(current.from(span.start()), current.to(span.end() - 1), span.kind()));
                found.add(span.kind());
                copied = span.end();
            }
            for (int k = copied; k < source.length(); k++) {
                next.append(source.charAt(k), k, k + 1);
            }
            current = next.build();
        }
        if (masked.isEmpty()) {
            return text;
        }
        masked.sort(Comparator.comparingInt(Found::start));
        StringBuilder out = new StringBuilder(text.length());
        int copied = 0;
        Found pending = null;
        for (Found span : masked) {
            if (pending != null && span.start() < pending.end()) {
                // a later detector's value that takes in an earlier mask: one mask for both
                pending = new Found(pending.start(), Math.max(pending.end(), span.end()), pending.kind());
                continue;
            }
            if (pending != null) {
                out.append(text, copied, pending.start()).append(pending.kind().mask());
                copied = pending.end();
            }
            pending = span;
        }
        out.append(text, copied, pending.start()).append(pending.kind().mask());
        return out.append(text, pending.end(), text.length()).toString();
    }

    /** Whether these ASCII digits, as one group, are a payment card's number. */
    public static boolean isCardNumber(String digits) {
        return NumberDetector.isCard(digits, List.of(digits.length()));
    }
}
