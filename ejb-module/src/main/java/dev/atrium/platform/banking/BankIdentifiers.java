package dev.atrium.platform.banking;

import java.util.Locale;
import java.util.Optional;

import org.iban4j.BicFormatException;
import org.iban4j.BicUtil;
import org.iban4j.CountryCode;
import org.iban4j.IbanFormatException;
import org.iban4j.IbanUtil;
import org.iban4j.InvalidCheckDigitException;
import org.iban4j.UnsupportedCountryException;

/**
 * IBAN (ISO 13616) and BIC (ISO 9362) checks against the registry, by iban4j: the one place that decides whether text
 * is a bank account number, for payout accounts and for the masking of personal data alike. An IBAN must be of a
 * country of the IBAN registry, with that country's length and account structure and the mod-97 check; a BIC must
 * have eight or eleven characters with a real country code.
 */
public final class BankIdentifiers {

    /** Longer text is never looked at: an IBAN has at most 34 characters, spaced at most 42. */
    static final int MAX_TEXT = 64;

    private BankIdentifiers() {
    }

    /** The IBAN in {@code text} in its compact, upper-case form (spaces dropped), or empty when it is none. */
    public static Optional<String> iban(String text) {
        if (text == null || text.length() > MAX_TEXT) {
            return Optional.empty();
        }
        String compact = text.replace(" ", "").toUpperCase(Locale.ROOT);
        try {
            IbanUtil.validate(compact);
            return Optional.of(compact);
        } catch (IbanFormatException | InvalidCheckDigitException | UnsupportedCountryException e) {
            return Optional.empty();
        }
    }

    /** Whether the compact, upper-case {@code candidate} is an IBAN: the masking's check of each candidate it finds. */
    public static boolean isIban(CharSequence candidate) {
        return candidate.length() <= 34 && iban(candidate.toString()).filter(candidate.toString()::equals).isPresent();
    }

    /**
     * The IBAN length of each registry country by its two letters (index {@code (c1 - 'A') * 26 + c2 - 'A'}), 0 for
     * none: read from iban4j once, since its look-up of an unknown code throws, and the masking asks for every word.
     */
    private static final int[] IBAN_LENGTHS = ibanLengths();

    private static int[] ibanLengths() {
        int[] lengths = new int[26 * 26];
        for (CountryCode code : CountryCode.values()) {
            String alpha2 = code.getAlpha2();
            if (alpha2.length() == 2 && IbanUtil.isSupportedCountry(code)) {
                lengths[(alpha2.charAt(0) - 'A') * 26 + alpha2.charAt(1) - 'A'] = IbanUtil.getIbanLength(code);
            }
        }
        return lengths;
    }

    /** The length of an IBAN of the country with this upper-case code, 0 when the registry has no such country. */
    public static int ibanLength(CharSequence country) {
        if (country.length() != 2) {
            return 0;
        }
        int first = country.charAt(0) - 'A';
        int second = country.charAt(1) - 'A';
        return first < 0 || first >= 26 || second < 0 || second >= 26 ? 0 : IBAN_LENGTHS[first * 26 + second];
    }

    /** The BIC in {@code text}, upper case and trimmed, or empty when it is none. */
    public static Optional<String> bic(String text) {
        if (text == null || text.length() > MAX_TEXT) {
            return Optional.empty();
        }
        String bic = text.strip().toUpperCase(Locale.ROOT);
        try {
            BicUtil.validate(bic);
            return Optional.of(bic);
        } catch (BicFormatException | UnsupportedCountryException e) {
            return Optional.empty();
        }
    }

    /** The country of a valid BIC (its fifth and sixth characters). */
    public static String bicCountry(String bic) {
        return bic.substring(4, 6);
    }

    /** The country of a valid IBAN (its first two characters). */
    public static String ibanCountry(String iban) {
        return iban.substring(0, 2);
    }
}
