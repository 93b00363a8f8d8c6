package dev.atrium.billing.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Instant;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.atrium.platform.error.BusinessException;

/** Payout details as a developer types them: the hostile table, each refusal naming its field, and a seeded loop. */
class PayoutAccountTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261128L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 5000);
    private static final Instant NOW = Instant.parse("2026-11-28T00:00:00Z");

    @ParameterizedTest(name = "{0} {1} {2} {3} -> {4}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            bank_transfer | US64SVBKUS6S3300958879   | -           | -                    | iban
            bank_transfer | DE89370400440532013000   | XXXXXXXX    | -                    | bic
            bank_transfer | DE89370400440532013000   | NWBKGB2L    | -                    | bic
            bank_transfer | GB82WEST12345698765432   | COBADEFFXXX | -                    | bic
            bank_transfer | DE89370400440532013000   | DEUTXXFF    | -                    | bic
            bank_transfer | DE89370400440532013000   | COBADEFF5   | -                    | bic
            bank_transfer | DE89370400440532013000   | COBA DEFF   | -                    | bic
            bank_transfer | DE89370400440532013000   | -           | acct_1AtriumTest0001 | connected_account
            bank_transfer | -                        | COBADEFFXXX | -                    | iban
            processor     | -                        | -           | -                    | connected_account
            processor     | -                        | -           | acct_                | connected_account
            processor     | -                        | -           | acct_1Atrium/../x    | connected_account
            processor     | -                        | -           | ba_1AtriumTest0001   | connected_account
            processor     | -                        | -           | acct_1Atrium' OR '1  | connected_account
            processor     | DE89370400440532013000   | -           | acct_1AtriumTest0001 | iban
            processor     | -                        | COBADEFFXXX | acct_1AtriumTest0001 | bic
            """)
    void whenPayoutDetailsAreHostileThenTheyAreRefusedNamingTheField(String method, String iban, String bic,
                                                                     String connected, String field) {
        var account = new PayoutAccount(7);
        Throwable refused = catchThrowable(() -> account.change(PayoutAccount.Method.of(method), "Ada", iban, bic,
                connected, NOW));

        assertThat(refused).isInstanceOf(BusinessException.class);
        assertThat(((BusinessException) refused).details()).startsWith(field + ":");
        assertThat(account.method()).as("nothing changed").isNull();
    }

    @Test
    void whenTheBicIsOfTheIbansCountryOrATerritoryBankingUnderItThenTheAccountIsTaken() {
        var account = new PayoutAccount(7);

        account.change(PayoutAccount.Method.BANK_TRANSFER, "Ada", "GB82 WEST 1234 5698 7654 32", "nwbkgb2l", null,
                NOW);
        assertThat(account.bic()).isEqualTo("NWBKGB2L");
        account.change(PayoutAccount.Method.BANK_TRANSFER, "Ada", "GB82WEST12345698765432", "RBOSJESH", null, NOW);
        assertThat(account.bic()).isEqualTo("RBOSJESH");
        account.change(PayoutAccount.Method.PROCESSOR, "Ada", null, null, " acct_1AtriumTest0001 ", NOW);
        assertThat(account.connectedAccount()).isEqualTo("acct_1AtriumTest0001");
        assertThat(account.iban()).isNull();
        assertThat(account.bic()).isNull();
    }

    @Test
    void whenABicIsMangledAtRandomThenItIsTakenOnlyAsAValidBicOfTheIbansCountry() {
        var random = new Random(SEED);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -/'\u0000é";
        for (int round = 0; round < ROUNDS; round++) {
            var bic = new StringBuilder(random.nextBoolean() ? "COBADEFFXXX" : "DEUTDEFF");
            int edits = 1 + random.nextInt(3);
            for (int i = 0; i < edits && bic.length() > 0; i++) {
                int at = random.nextInt(bic.length());
                switch (random.nextInt(3)) {
                    case 0 -> bic.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    case 1 -> bic.deleteCharAt(at);
                    default -> bic.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            var account = new PayoutAccount(7);
            String text = bic.toString();
            Throwable refused = catchThrowable(() -> account.change(PayoutAccount.Method.BANK_TRANSFER, "Ada",
                    "DE89370400440532013000", text, null, NOW));
            String as = "seed " + SEED + " round " + round + ": " + text;
            if (refused == null) {
                assertThat(account.bic()).as(as).matches("[A-Z0-9]{4}DE[A-Z0-9]{2}([A-Z0-9]{3})?");
            } else {
                assertThat(refused).as(as).isInstanceOf(BusinessException.class);
                assertThat(((BusinessException) refused).details()).as(as).startsWith("bic:");
            }
        }
    }

    @Test
    void whenTheMethodIsUnknownThenItIsRefused() {
        assertThatThrownBy(() -> PayoutAccount.Method.of("cash")).isInstanceOf(BusinessException.class);
    }
}
