package dev.atrium.billing.entity;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.atrium.platform.banking.BankIdentifiers;

/**
 * An International Bank Account Number (ISO 13616), as {@link BankIdentifiers} checks it against the registry: spaces
 * allowed in what a user types and dropped, the country's length and structure, the mod-97 check.
 */
public record Iban(String value) {

    /**
     * Territories whose banks' BICs carry their own country code while their accounts carry the IBAN country of the
     * state they bank in (the Channel Islands and Man with GB, the French overseas territories with FR, Åland with FI).
     */
    private static final Map<String, Set<String>> BIC_COUNTRIES = Map.of(
            "GB", Set.of("GG", "JE", "IM"),
            "FR", Set.of("GF", "GP", "MQ", "RE", "YT", "PM", "NC", "PF", "WF", "BL", "MF"),
            "FI", Set.of("AX"));

    /** The IBAN in {@code text}, or empty when it is not one. */
    public static Optional<Iban> parse(String text) {
        return BankIdentifiers.iban(text).map(Iban::new);
    }

    /** The country of the account: its first two letters. */
    public String country() {
        return BankIdentifiers.ibanCountry(value);
    }

    /** Whether a valid BIC's bank is in this account's country (or a territory banking under its IBAN country). */
    public boolean sameCountryAs(String bic) {
        String bank = BankIdentifiers.bicCountry(bic);
        return bank.equals(country()) || BIC_COUNTRIES.getOrDefault(country(), Set.of()).contains(bank);
    }

    /** The country and the last four characters, the rest hidden: what responses show. */
    public String masked() {
        return value.substring(0, 2) + "••" + "•".repeat(Math.max(0, value.length() - 8))
                + value.substring(value.length() - 4);
    }
}
