package dev.atrium.marketplace.control.pii;

import static dev.atrium.marketplace.control.pii.Chars.asciiAlnum;
import static dev.atrium.marketplace.control.pii.Chars.asciiLetter;
import static dev.atrium.marketplace.control.pii.Chars.at;
import static dev.atrium.marketplace.control.pii.Chars.before;
import static dev.atrium.marketplace.control.pii.Chars.hyphen;
import static dev.atrium.marketplace.control.pii.Chars.invisible;
import static dev.atrium.marketplace.control.pii.Chars.space;
import static dev.atrium.marketplace.control.pii.Chars.word;

import java.util.List;

import dev.atrium.platform.banking.BankIdentifiers;

/**
 * IBANs: a country of the IBAN registry, two check digits, then exactly that country's length, any case, written
 * without separators or with one separator (space, hyphen, dot, underscore, slash) after every four characters.
 * Whether the candidate is an IBAN (the country's length and account structure, the mod-97 check) is decided by
 * {@link BankIdentifiers}; a candidate is at most 34 characters, so each start costs a constant.
 */
final class IbanDetector implements Detector {

    @Override
    public void find(String text, List<Found> into) {
        int n = text.length();
        for (int i = 0; i + 1 < n; i++) {
            char c = text.charAt(i);
            if (!asciiLetter(c) || word(before(text, i))) {
                continue;
            }
            int end = match(text, i);
            if (end < 0) {
                continue;
            }
            into.add(new Found(i, end, Kind.IBAN));
            i = end - 1;
        }
    }

    private static boolean separator(char c) {
        return space(c) || hyphen(c) || c == '.' || c == '_' || c == '/';
    }

    /**
     * The end of an IBAN starting at {@code start}, or -1. A separator is allowed only after every four characters
     * (and then after each four), the printed form.
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
            if (separator(c)) {
                boolean allowed = length > 0 && count % 4 == 0 && count < length && (count == 4 || spaced)
                        && !afterSpace && asciiAlnum(at(text, i + 1));
                if (!allowed) {
                    break;
                }
                spaced = true;
                afterSpace = true;
                i++;
                continue;
            }
            if (!asciiAlnum(c)) {
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
                length = BankIdentifiers.ibanLength(chars);
                if (length == 0) {
                    return -1;
                }
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
        return BankIdentifiers.isIban(chars) ? i : -1;
    }
}
