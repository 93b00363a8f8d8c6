package dev.atrium.billing.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.error.BusinessException;

/** The ledger's invariants: balanced entries only, holds closed once, top-up amounts in whole cents. */
class LedgerRulesTest {

    private static final Instant NOW = Instant.parse("2026-11-24T00:00:00Z");

    private static JournalEntry.Posting on(BillingAccount a, String amount) {
        return new JournalEntry.Posting(a, new BigDecimal(amount));
    }

    @Test
    void whenAnEntryBalancesThenItsAccountsMoveByItsLines() {
        var user = new BillingAccount(AccountKind.USER_BALANCE, 7, NOW);
        var external = new BillingAccount(AccountKind.EXTERNAL_PAYMENTS, BillingAccount.PLATFORM, NOW);

        var entry = JournalEntry.post(EntryKind.TOP_UP, "top-up:1", 7L, "Top-up",
                List.of(on(external, "-12.34"), on(user, "12.34")), NOW);

        assertThat(entry.lines()).hasSize(2);
        assertThat(user.balance()).isEqualByComparingTo("12.34");
        assertThat(external.balance()).isEqualByComparingTo("-12.34");
    }

    @Test
    void whenAnEntryDoesNotBalanceOrMovesNothingThenItIsRefusedAndNoAccountMoves() {
        var user = new BillingAccount(AccountKind.USER_BALANCE, 7, NOW);
        var promotions = new BillingAccount(AccountKind.PROMOTIONS, BillingAccount.PLATFORM, NOW);

        assertThatThrownBy(() -> JournalEntry.post(EntryKind.ADMIN_CREDIT, "c:1", 1L, "x",
                List.of(on(promotions, "-1.00"), on(user, "1.000001")), NOW)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JournalEntry.post(EntryKind.ADMIN_CREDIT, "c:2", 1L, "x",
                List.of(on(promotions, "0"), on(user, "0")), NOW)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JournalEntry.post(EntryKind.ADMIN_CREDIT, " ", 1L, "x",
                List.of(on(promotions, "-1"), on(user, "1")), NOW)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JournalEntry.post(EntryKind.ADMIN_CREDIT, "c".repeat(121), 1L, "x",
                List.of(on(promotions, "-1"), on(user, "1")), NOW)).isInstanceOf(IllegalArgumentException.class);
        assertThat(user.balance()).isZero();
        assertThat(promotions.balance()).isZero();
    }

    @Test
    void whenEntriesAreComposedThenTheirRowsHaveTimeOrderedIdsAndTheAccountsAreLeftToTheCaller() {
        var user = new BillingAccount(AccountKind.USER_BALANCE, 7, NOW);
        var developer = new BillingAccount(AccountKind.DEVELOPER_EARNINGS, 8, NOW);
        var ids = new java.util.ArrayList<java.util.UUID>();
        for (int i = 0; i < 200; i++) {
            var entry = JournalEntry.compose(EntryKind.USAGE, "usage:" + i, null, "Agent", List.of(
                    new JournalEntry.Amount(user.id(), new BigDecimal("-0.01")),
                    new JournalEntry.Amount(developer.id(), new BigDecimal("0.01"))), null, NOW);
            ids.add(entry.id());
            entry.lines().forEach(l -> ids.add(l.id()));
        }

        // version 7 ids, each later than the one before: appended to the journal's indexes, not scattered over them
        assertThat(ids).allSatisfy(id -> assertThat(id.version()).isEqualTo(7));
        assertThat(ids).isSorted().doesNotHaveDuplicates();
        // composing checks the entry but moves no account: Ledger.postAll moves each once per batch
        assertThat(user.balance()).isZero();
        assertThat(developer.balance()).isZero();
        assertThatThrownBy(() -> JournalEntry.compose(EntryKind.USAGE, "usage:x", null, "Agent", List.of(
                new JournalEntry.Amount(user.id(), new BigDecimal("-0.01")),
                new JournalEntry.Amount(developer.id(), new BigDecimal("0.02"))), null, NOW))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whenAnAccountKindDoesNotFitItsOwnerThenItIsRefused() {
        assertThatThrownBy(() -> new BillingAccount(AccountKind.USER_BALANCE, BillingAccount.PLATFORM, NOW))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BillingAccount(AccountKind.PLATFORM_REVENUE, 7, NOW))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whenAHoldIsClosedThenItStaysClosed() {
        var hold = new Hold(java.util.UUID.randomUUID(), java.util.UUID.randomUUID(), new BigDecimal("5"), NOW);

        assertThat(hold.close(Hold.Status.SETTLED, NOW)).isTrue();
        assertThat(hold.close(Hold.Status.RELEASED, NOW)).isFalse();
        assertThat(hold.status()).isEqualTo(Hold.Status.SETTLED);
        assertThatThrownBy(() -> new Hold(java.util.UUID.randomUUID(), java.util.UUID.randomUUID(), BigDecimal.ZERO,
                NOW)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whenATopUpAmountIsHostileThenItIsRefused() {
        for (String hostile : List.of("-1", "0", "0.99", "1.001", "10000.01", "1E+400", "0.000001")) {
            assertThatThrownBy(() -> TopUp.checked(new BigDecimal(hostile))).as(hostile)
                    .isInstanceOf(BusinessException.class);
        }
        assertThatThrownBy(() -> TopUp.checked(null)).isInstanceOf(BusinessException.class);
        for (String fine : List.of("1", "1.00", "12.34", "10000", "10000.00", "1.10")) {
            assertThat(TopUp.checked(new BigDecimal(fine))).as(fine).isEqualByComparingTo(fine);
        }
    }
}
