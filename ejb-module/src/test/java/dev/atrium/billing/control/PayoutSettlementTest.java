package dev.atrium.billing.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Function;

import javax.sql.DataSource;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.atrium.billing.entity.AccountKind;
import dev.atrium.billing.entity.BillingAccount;
import dev.atrium.billing.entity.EntryKind;
import dev.atrium.billing.entity.Payout;
import dev.atrium.billing.entity.PayoutAccount;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.persistence.TestDatabases;

/**
 * A payout chunk settled as a set ({@link Payouts#settle}) over H2 in PostgreSQL mode
 * ({@code -Datrium.test.postgres-url=...} runs it against an empty PostgreSQL): each developer is paid what their
 * earnings lines caused before the month's end add up to, rounded down to cents, whatever was posted or caused after
 * it; below the minimum or without a payout account the amount is carried; a second settlement pays nobody twice.
 */
class PayoutSettlementTest {

    private static final YearMonth MONTH = YearMonth.of(2026, 10);
    private static final Instant IN_MONTH = Instant.parse("2026-10-20T10:00:00Z");
    private static final Instant END = Instant.parse("2026-11-01T00:00:00Z");
    private static EntityManagerFactory factory;

    private Clock clock = Clock.fixed(Instant.parse("2026-10-25T10:00:00Z"), ZoneOffset.UTC);

    @BeforeAll
    static void migrate() {
        DataSource dataSource = TestDatabases.dataSource("payouts");
        TestDatabases.migrate(dataSource);
        factory = TestDatabases.entityManagers(dataSource);
    }

    @AfterAll
    static void close() {
        factory.close();
    }

    private <T> T inTransaction(Function<Payouts, T> work) {
        return TestDatabases.inTransaction(factory, em -> work.apply(payouts(em)));
    }

    private Payouts payouts(EntityManager em) {
        var ledger = new Ledger();
        ledger.em = em;
        ledger.clock = clock;
        ledger.config = ConfigDefaults.of(BillingConfig.class);
        ledger.config.signupCredit = BigDecimal.ZERO;
        var accounts = new PayoutAccounts();
        accounts.em = em;
        var payouts = new Payouts();
        payouts.em = em;
        payouts.ledger = ledger;
        payouts.accounts = accounts;
        payouts.clock = clock;
        payouts.config = ConfigDefaults.of(BillingConfig.class);
        payouts.config.payoutMinimum = new BigDecimal("50.00");
        return payouts;
    }

    /** Earnings for the developer from promotions, caused at {@code occurred}. */
    private void earn(long developer, String amount, String reference, Instant occurred) {
        inTransaction(p -> p.ledger.post(EntryKind.ADMIN_CREDIT, reference, null, "Earned", List.of(
                new Ledger.Line(AccountKind.PROMOTIONS, BillingAccount.PLATFORM, new BigDecimal(amount).negate()),
                new Ledger.Line(AccountKind.DEVELOPER_EARNINGS, developer, new BigDecimal(amount))), occurred));
    }

    private void bankAccount(long developer) {
        inTransaction(p -> {
            var account = new PayoutAccount(developer);
            account.change(PayoutAccount.Method.BANK_TRANSFER, "Developer " + developer, "DE89370400440532013000",
                    "COBADEFFXXX", null, clock.instant());
            p.em.persist(account);
            return null;
        });
    }

    private Payout payoutOf(long developer) {
        return inTransaction(p -> p.of(MONTH).stream().filter(x -> x.developerId() == developer).findFirst()
                .orElseThrow());
    }

    private BigDecimal earningsOf(long developer) {
        return inTransaction(p -> p.ledger.find(AccountKind.DEVELOPER_EARNINGS, developer).orElseThrow().balance());
    }

    @Test
    void whenEarningsWereCausedAfterTheMonthThenOnlyThoseBeforeItsEndArePaid() {
        long developer = 710_001;
        bankAccount(developer);
        earn(developer, "60.004", "earned:before:" + developer, IN_MONTH);
        // caused after the month, posted within it (a clock ahead): not the month's
        earn(developer, "7.00", "earned:caused-later:" + developer, END.plusSeconds(5));
        clock = Clock.fixed(END.plusSeconds(3600), ZoneOffset.UTC);
        earn(developer, "11.00", "earned:after:" + developer, END.plusSeconds(60));

        int paid = inTransaction(p -> p.settle(List.of(developer), MONTH));

        assertThat(paid).isEqualTo(1);
        assertThat(payoutOf(developer).amount()).isEqualByComparingTo("60.00");
        assertThat(payoutOf(developer).status()).isEqualTo(Payout.Status.PENDING_FILE);
        assertThat(earningsOf(developer)).isEqualByComparingTo("18.004");
    }

    @Test
    void whenBelowTheMinimumOrWithoutAPayoutAccountThenTheAmountIsCarried() {
        long small = 720_001;
        long unpaid = 720_002;
        bankAccount(small);
        earn(small, "49.999", "earned:" + small, IN_MONTH);
        earn(unpaid, "80.00", "earned:" + unpaid, IN_MONTH);
        clock = Clock.fixed(END.plusSeconds(3600), ZoneOffset.UTC);

        int paid = inTransaction(p -> p.settle(List.of(unpaid, small), MONTH));

        assertThat(paid).isZero();
        assertThat(payoutOf(small).status()).isEqualTo(Payout.Status.CARRIED);
        assertThat(payoutOf(small).amount()).isEqualByComparingTo("49.999");
        assertThat(payoutOf(unpaid).status()).isEqualTo(Payout.Status.NO_ACCOUNT);
    }

    @Test
    void whenAChunkIsSettledAgainThenNobodyIsPaidTwice() {
        var developers = List.of(730_001L, 730_002L, 730_003L);
        developers.forEach(d -> {
            bankAccount(d);
            earn(d, "75.00", "earned:" + d, IN_MONTH);
        });
        clock = Clock.fixed(END.plusSeconds(3600), ZoneOffset.UTC);

        int first = inTransaction(p -> p.settle(developers, MONTH));
        int second = inTransaction(p -> p.settle(developers, MONTH));

        assertThat(first).isEqualTo(3);
        assertThat(second).isZero();
        developers.forEach(d -> {
            assertThat(payoutOf(d).amount()).isEqualByComparingTo("75.00");
            assertThat(earningsOf(d)).isEqualByComparingTo("0");
        });
    }
}
