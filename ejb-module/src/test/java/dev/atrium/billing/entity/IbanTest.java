package dev.atrium.billing.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.error.BusinessException;

/** IBANs of the registry (by iban4j), hostile text refused, and a seeded loop of mutations. */
class IbanTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261124L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 5000);
    private static final List<String> VALID = List.of("DE89370400440532013000", "GB82WEST12345698765432",
            "FR1420041010050500013M02606", "NL91ABNA0417164300", "CH9300762011623852957", "NO9386011117947",
            "BE68539007547034", "IT60X0542811101000000123456");

    @Test
    void whenRealIbansAreReadThenTheyParseAlsoWithSpacesAndLowerCase() {
        for (String iban : VALID) {
            assertThat(Iban.parse(iban)).as(iban).contains(new Iban(iban));
        }
        assertThat(Iban.parse("de89 3704 0044 0532 0130 00")).contains(new Iban("DE89370400440532013000"));
        assertThat(new Iban("DE89370400440532013000").masked()).isEqualTo("DE••••••••••••••••3000");
    }

    @Test
    void whenHostileTextIsReadThenNoIbanComesOut() {
        var hostile = List.of("", " ", "DE", "DE89", "DE88370400440532013000", "DE8937040044053201300",
                "DE893704004405320130000", "XX89370400440532013000", "1289370400440532013000",
                "DE89-3704-0044-0532-0130-00", "DE89370400440532013000\n", "DE8937040044053201300\u0000",
                "ÄE89370400440532013000", "DE89370400440532013000' OR '1'='1", "A".repeat(65),
                "GB82WEST1234569876543", "NL91ABNA041716430", "ZZ00" + "9".repeat(30),
                // the US has no IBAN, though the check digits of this one add up
                "US64SVBKUS6S3300958879");
        for (String h : hostile) {
            assertThat(Iban.parse(h)).as(h).isEmpty();
        }
        assertThat(Iban.parse(null)).isEmpty();
    }

    @Test
    void whenAValidIbanHasOneDigitChangedThenItIsRefused() {
        var random = new Random(SEED);
        for (int round = 0; round < ROUNDS; round++) {
            String iban = VALID.get(random.nextInt(VALID.size()));
            int at = 2 + random.nextInt(iban.length() - 2);
            char replacement = (char) ('0' + random.nextInt(10));
            if (replacement == iban.charAt(at) || !Character.isDigit(iban.charAt(at))) {
                continue;
            }
            String mutated = iban.substring(0, at) + replacement + iban.substring(at + 1);
            // ISO 7064 mod 97-10 catches every single substitution of a digit
            assertThat(Iban.parse(mutated)).as("seed " + SEED + " round " + round + ": " + mutated).isEmpty();
        }
    }

    @Test
    void whenPayoutDetailsAreWrongThenTheFieldIsNamed() {
        var account = new PayoutAccount(7);
        Instant now = Instant.parse("2026-11-24T00:00:00Z");
        assertThatThrownBy(() -> account.change(PayoutAccount.Method.BANK_TRANSFER, "Ada", "DE00", null, null, now))
                .isInstanceOf(BusinessException.class)
                .satisfies(e -> assertThat(((BusinessException) e).details()).contains("iban"));
        assertThatThrownBy(() -> account.change(PayoutAccount.Method.BANK_TRANSFER, "Ada", VALID.get(0), "BAD", null,
                now))
                .isInstanceOf(BusinessException.class)
                .satisfies(e -> assertThat(((BusinessException) e).details()).contains("bic"));
        assertThatThrownBy(() -> account.change(PayoutAccount.Method.PROCESSOR, "Ada", VALID.get(0), null,
                "acct_1AtriumTest0001", now))
                .isInstanceOf(BusinessException.class)
                .satisfies(e -> assertThat(((BusinessException) e).details()).contains("iban"));
        assertThatThrownBy(() -> account.change(PayoutAccount.Method.PROCESSOR, "Ada\u0007", null, null,
                "acct_1AtriumTest0001", now))
                .isInstanceOf(BusinessException.class)
                .satisfies(e -> assertThat(((BusinessException) e).details()).contains("holder_name"));
        assertThatThrownBy(() -> PayoutAccount.Method.of("cash")).isInstanceOf(BusinessException.class);

        account.change(PayoutAccount.Method.BANK_TRANSFER, " Ada Lovelace ", "de89 3704 0044 0532 0130 00",
                "cobadeffxxx", null, now);

        assertThat(account.iban()).isEqualTo("DE89370400440532013000");
        assertThat(account.bic()).isEqualTo("COBADEFFXXX");
        assertThat(account.holderName()).isEqualTo("Ada Lovelace");
    }
}
