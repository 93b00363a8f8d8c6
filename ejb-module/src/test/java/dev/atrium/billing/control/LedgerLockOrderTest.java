package dev.atrium.billing.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.atrium.billing.entity.AccountKind;
import dev.atrium.billing.entity.BillingAccount;
import dev.atrium.billing.entity.EntryKind;
import dev.atrium.billing.entity.PayoutAccount;
import dev.atrium.billing.entity.RevenueSplit;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.persistence.TestDatabases;

/**
 * One lock order for every writer of accounts, on PostgreSQL (where a deadlock aborts a transaction): billing batches
 * and payout chunks over the same developers run at once, round after round, with the batches' lines in random
 * order, and neither is ever aborted; balances still equal their lines. Runs on a database of its own on the local
 * PostgreSQL (127.0.0.1:5432, user postgres, or {@code -Datrium.test.postgres-admin-url}); skipped when none answers,
 * unless {@code ATRIUM_TEST_REQUIRE_SERVICES=true} (as {@code scripts/test} sets it).
 */
class LedgerLockOrderTest {

    private static final Instant SEEDED = Instant.parse("2025-12-15T10:00:00Z");
    private static final int DEVELOPERS = 8;
    private static final int USERS = 16;
    private static final int ROUNDS = Integer.getInteger("atrium.stress.rounds", 12);
    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261128L);

    private static TestDatabases.OwnDatabase database;
    private static EntityManagerFactory factory;

    private final Clock clock = Clock.fixed(Instant.parse("2026-11-28T10:00:00Z"), ZoneOffset.UTC);

    @BeforeAll
    static void database() {
        database = TestDatabases.postgresOfItsOwn("atrium_lock_order");
        factory = TestDatabases.entityManagers(database.dataSource());
    }

    @AfterAll
    static void drop() throws Exception {
        if (factory != null) {
            factory.close();
        }
        if (database != null) {
            database.close();
        }
    }

    private record Services(EntityManager em, Ledger ledger, Balances balances, Payouts payouts) {
    }

    private <T> T inTransaction(Function<Services, T> work) {
        EntityManager em = factory.createEntityManager();
        try {
            var ledger = new Ledger();
            ledger.em = em;
            ledger.clock = clock;
            ledger.config = ConfigDefaults.of(BillingConfig.class);
            ledger.config.signupCredit = BigDecimal.ZERO;
            var balances = new Balances();
            balances.em = em;
            balances.ledger = ledger;
            balances.clock = clock;
            var accounts = new PayoutAccounts();
            accounts.em = em;
            var payouts = new Payouts();
            payouts.em = em;
            payouts.ledger = ledger;
            payouts.accounts = accounts;
            payouts.clock = clock;
            payouts.config = ConfigDefaults.of(BillingConfig.class);
            payouts.config.payoutMinimum = new BigDecimal("50.00");
            em.getTransaction().begin();
            T result = work.apply(new Services(em, ledger, balances, payouts));
            em.getTransaction().commit();
            return result;
        } finally {
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.close();
        }
    }

    private static long developer(int i) {
        return 1000 + i;
    }

    private static long user(int i) {
        return 5000 + i;
    }

    @Test
    void whenBillingBatchesAndPayoutChunksMoveTheSameAccountsAtOnceThenNeitherDeadlocks() throws Exception {
        inTransaction(s -> {
            for (int d = 0; d < DEVELOPERS; d++) {
                var account = new PayoutAccount(developer(d));
                account.change(PayoutAccount.Method.BANK_TRANSFER, "Developer " + d, "DE89370400440532013000",
                        "COBADEFFXXX", null, clock.instant());
                s.em().persist(account);
            }
            for (int u = 0; u < USERS; u++) {
                s.ledger().post(EntryKind.ADMIN_CREDIT, "seed:user:" + u, null, "Seed", List.of(
                        new Ledger.Line(AccountKind.PROMOTIONS, BillingAccount.PLATFORM, new BigDecimal("-100000")),
                        new Ledger.Line(AccountKind.USER_BALANCE, user(u), new BigDecimal("100000"))), SEEDED);
            }
            return null;
        });
        var random = new Random(SEED);
        var pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                var batch = new ArrayList<Ledger.Request>();
                for (int k = 0; k < 3 * DEVELOPERS; k++) {
                    var price = new BigDecimal("100.00");
                    var split = RevenueSplit.of(price);
                    long dev = developer(random.nextInt(DEVELOPERS));
                    batch.add(new Ledger.Request(EntryKind.USAGE, "usage:" + round + ":" + k, null, "Agent", List.of(
                            new Ledger.Line(AccountKind.USER_BALANCE, user(random.nextInt(USERS)), price.negate()),
                            new Ledger.Line(AccountKind.DEVELOPER_EARNINGS, dev, split.developer()),
                            new Ledger.Line(AccountKind.PLATFORM_REVENUE, BillingAccount.PLATFORM, split.platform()),
                            new Ledger.Line(AccountKind.MODEL_COST, BillingAccount.PLATFORM, split.model())), SEEDED));
                }
                Collections.shuffle(batch, random);
                var month = YearMonth.of(2026, 1).plusMonths(round);
                var developers = new ArrayList<Long>();
                for (int d = 0; d < DEVELOPERS; d++) {
                    developers.add(developer(d));
                }
                var start = new CountDownLatch(1);
                Future<Integer> billing = pool.submit(() -> {
                    start.await();
                    return inTransaction(s -> s.ledger().postAll(batch));
                });
                Future<Integer> payout = pool.submit(() -> {
                    start.await();
                    return inTransaction(s -> s.payouts().settle(developers, month));
                });
                start.countDown();
                assertThat(billing.get()).as("round " + round + " (seed " + SEED + ")").isEqualTo(batch.size());
                assertThat(payout.get()).as("round " + round).isGreaterThanOrEqualTo(0);
            }
        } finally {
            pool.shutdownNow();
        }
        long offBalance = inTransaction(s -> ((Number) s.em().createNativeQuery("SELECT COUNT(*) FROM ("
                + "SELECT a.id FROM billing_accounts a LEFT JOIN journal_lines l ON l.account_id = a.id "
                + "GROUP BY a.id, a.balance HAVING a.balance <> COALESCE(SUM(l.amount), 0)) x").getSingleResult())
                .longValue());
        assertThat(offBalance).isZero();
        long payoutsMade = inTransaction(s -> ((Number) s.em().createNativeQuery("SELECT COUNT(*) FROM "
                + "billing_payouts WHERE amount > 0").getSingleResult()).longValue());
        assertThat(payoutsMade).as("payouts really moved money beside the batches").isPositive();
    }
}
