package dev.atrium.platform.banking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class BankIdentifiersTest {

    @Test
    void whenAnIbanIsSpacedOrLowerCaseThenItIsReadCompact() {
        assertEquals(Optional.of("DE89370400440532013000"), BankIdentifiers.iban("de89 3704 0044 0532 0130 00"));
        assertEquals("DE", BankIdentifiers.ibanCountry("DE89370400440532013000"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"US64SVBKUS6S3300958879", "DE89370400440532013001", "DE8937040044053201300",
            "XX89370400440532013000", "GB82WEST1234569876543Z", "", "DE89-3704-0044-0532-0130-00",
            "DE89370400440532013000DE89370400440532013000DE89370400440532013000"})
    void whenTextIsNoIbanOfTheRegistryThenItIsRefused(String text) {
        assertFalse(BankIdentifiers.iban(text).isPresent(), text);
    }

    @Test
    void whenACountryIsLookedUpThenItsIbanLengthComesFromTheRegistry() {
        assertEquals(22, BankIdentifiers.ibanLength("DE"));
        assertEquals(15, BankIdentifiers.ibanLength("NO"));
        assertEquals(0, BankIdentifiers.ibanLength("ZZ"));
        assertEquals(0, BankIdentifiers.ibanLength("US"));
        assertEquals(0, BankIdentifiers.ibanLength("de"));
        assertEquals(0, BankIdentifiers.ibanLength("DEU"));
    }

    @Test
    void whenANullIsReadThenItIsNoIdentifier() {
        assertFalse(BankIdentifiers.iban(null).isPresent());
        assertFalse(BankIdentifiers.bic(null).isPresent());
    }

    @ParameterizedTest
    @ValueSource(strings = {"DEUTDEFF", "DEUTDEFF500", "deutdeff", "NWBKGB2L"})
    void whenABicIsWellFormedThenItIsRead(String bic) {
        assertTrue(BankIdentifiers.bic(bic).isPresent(), bic);
    }

    @ParameterizedTest
    @ValueSource(strings = {"XXXXXXXX", "DEUTXXFF", "DEUTDEF", "DEUTDEFF5", "DEUT DEFF", "12345678", ""})
    void whenABicIsMalformedOrOfNoCountryThenItIsRefused(String bic) {
        assertFalse(BankIdentifiers.bic(bic).isPresent(), bic);
    }

    @Test
    void whenACompactCandidateIsCheckedThenOnlyACompactIbanPasses() {
        assertTrue(BankIdentifiers.isIban("GB82WEST12345698765432"));
        assertFalse(BankIdentifiers.isIban("gb82WEST12345698765432"));
        assertFalse(BankIdentifiers.isIban("GB82 WEST12345698765432"));
        assertEquals("DE", BankIdentifiers.bicCountry("DEUTDEFF"));
    }
}
