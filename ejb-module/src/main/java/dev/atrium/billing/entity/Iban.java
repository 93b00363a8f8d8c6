package dev.atrium.billing.entity;

import java.math.BigInteger;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An International Bank Account Number (ISO 13616): two letters of a country, two check digits, then the country's
 * basic bank account number. Spaces are allowed in what a user types and dropped; the length must be the country's
 * where the table knows it (15 to 34 otherwise) and the whole must pass the mod-97 check.
 */
public record Iban(String value) {

    private static final Pattern SHAPE = Pattern.compile("[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}");
    private static final BigInteger NINETY_SEVEN = BigInteger.valueOf(97);
    /** The lengths of the registry's most used countries. */
    static final Map<String, Integer> LENGTHS = Map.ofEntries(Map.entry("AT", 20), Map.entry("BE", 16),
            Map.entry("BG", 22), Map.entry("CH", 21), Map.entry("CY", 28), Map.entry("CZ", 24), Map.entry("DE", 22),
            Map.entry("DK", 18), Map.entry("EE", 20), Map.entry("ES", 24), Map.entry("FI", 18), Map.entry("FR", 27),
            Map.entry("GB", 22), Map.entry("GR", 27), Map.entry("HR", 21), Map.entry("HU", 28), Map.entry("IE", 22),
            Map.entry("IS", 26), Map.entry("IT", 27), Map.entry("LI", 21), Map.entry("LT", 20), Map.entry("LU", 20),
            Map.entry("LV", 21), Map.entry("MC", 27), Map.entry("MT", 31), Map.entry("NL", 18), Map.entry("NO", 15),
            Map.entry("PL", 28), Map.entry("PT", 25), Map.entry("RO", 24), Map.entry("SE", 24), Map.entry("SI", 19),
            Map.entry("SK", 24), Map.entry("SM", 27));

    /** The IBAN in {@code text}, or empty when it is not one. */
    public static Optional<Iban> parse(String text) {
        if (text == null || text.length() > 64) {
            return Optional.empty();
        }
        String compact = text.replace(" ", "").toUpperCase(Locale.ROOT);
        if (!SHAPE.matcher(compact).matches()) {
            return Optional.empty();
        }
        Integer length = LENGTHS.get(compact.substring(0, 2));
        if (length != null && compact.length() != length) {
            return Optional.empty();
        }
        String rearranged = compact.substring(4) + compact.substring(0, 4);
        var digits = new StringBuilder();
        for (char c : rearranged.toCharArray()) {
            digits.append(Character.isDigit(c) ? String.valueOf(c) : String.valueOf(c - 'A' + 10));
        }
        return new BigInteger(digits.toString()).mod(NINETY_SEVEN).intValue() == 1 ? Optional.of(new Iban(compact))
                : Optional.empty();
    }

    /** The country and the last four characters, the rest hidden: what responses show. */
    public String masked() {
        return value.substring(0, 2) + "••" + "•".repeat(Math.max(0, value.length() - 8))
                + value.substring(value.length() - 4);
    }
}
