package dev.atrium.billing.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.function.Function;

import javax.sql.DataSource;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.atrium.billing.entity.AccountKind;
import dev.atrium.billing.entity.BillingAccount;
import dev.atrium.billing.entity.EntryKind;
import dev.atrium.billing.entity.RevenueSplit;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.persistence.TestDatabases;

/**
 * The billing queue's way of posting ({@link Balances#settleAll} then {@link Ledger#postAll}) on the JPA provider the
 * server uses, over H2 in PostgreSQL mode ({@code -Datrium.test.postgres-url=...} runs it against an empty
 * PostgreSQL): batches posted by two threads at once over the same platform accounts, some usages in both, leave
 * every account's cached balance equal to the sum of its lines, release every hold once, and post nothing twice.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LedgerPersistenceTest {

    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");
    private EntityManagerFactory factory;

    private final Clock clock = Clock.fixed(T0, ZoneOffset.UTC);

    /** The migrated database the tests run on, made for them. */
    DataSource database() {
        DataSource dataSource = TestDatabases.dataSource("ledger");
        TestDatabases.migrate(dataSource);
        return dataSource;
    }

    /** Removes what {@link #database} made, once the tests are done. */
    void dropDatabase() {
    }

    @BeforeAll
    void open() {
        factory = TestDatabases.entityManagers(database());
    }

    @AfterAll
    void close() {
        // also after a skipped start (no PostgreSQL for the subclass): nothing was opened then
        if (factory != null) {
            factory.close();
        }
        dropDatabase();
    }

    private record Services(EntityManager em, Ledger ledger, Balances balances) {
    }

    private <T> T inTransaction(Function<Services, T> work) {
        EntityManager em = factory.createEntityManager();
        try {
            var ledger = new Ledger();
            ledger.em = em;
            ledger.clock = clock;
            ledger.config = ConfigDefaults.of(BillingConfig.class);
            ledger.config.signupCredit = new BigDecimal("5.00");
            var balances = new Balances();
            balances.em = em;
            balances.ledger = ledger;
            balances.clock = clock;
            em.getTransaction().begin();
            try {
                T result = work.apply(new Services(em, ledger, balances));
                em.getTransaction().commit();
                return result;
            } catch (RuntimeException e) {
                if (em.getTransaction().isActive()) {
                    em.getTransaction().rollback();
                }
                throw e;
            }
        } finally {
            em.close();
        }
    }

    /** A usage to bill: its user, developer, price and the hold placed for it. */
    private record Usage(String reference, long user, long developer, BigDecimal price, UUID hold) {
    }

    private static Ledger.Request request(Usage u) {
        var split = RevenueSplit.of(u.price());
        return new Ledger.Request(EntryKind.USAGE, u.reference(), null, "Agent", List.of(
                new Ledger.Line(AccountKind.USER_BALANCE, u.user(), u.price().negate()),
                new Ledger.Line(AccountKind.DEVELOPER_EARNINGS, u.developer(), split.developer()),
                new Ledger.Line(AccountKind.PLATFORM_REVENUE, BillingAccount.PLATFORM, split.platform()),
                new Ledger.Line(AccountKind.MODEL_COST, BillingAccount.PLATFORM, split.model())), T0);
    }

    /** Bills the batch as the billing consumer does: holds settled, entries posted, accounts moved, one commit. */
    private int bill(List<Usage> batch) {
        return inTransaction(s -> {
            var released = s.balances().settleAll(batch.stream().map(Usage::hold).toList()).byAccount();
            return s.ledger().postAll(batch.stream().map(LedgerPersistenceTest::request).toList(), released);
        });
    }

    @Test
    void whenTwoConsumersPostOverlappingBatchesThenBalancesEqualTheirLinesAndNothingPostsTwice() throws Exception {
        long seed = Long.getLong("atrium.fuzz.seed", 20261125L);
        var random = new Random(seed);
        long base = 1_000_000L + random.nextInt(1_000_000) * 100L;
        var usages = new ArrayList<Usage>();
        for (int i = 0; i < 240; i++) {
            long user = base + random.nextInt(8);
            var price = new BigDecimal(1 + random.nextInt(50_000)).movePointLeft(6);
            // each user's balance starts with the sign-up credit (a single entry posted as the account is made)
            UUID hold = inTransaction(s -> s.balances().hold(user, price));
            usages.add(new Usage("usage:" + seed + ":" + i, user, base + 50 + random.nextInt(4), price, hold));
        }
        // two consumers, each with every usage in batches of its own order: every usage arrives twice
        var first = new ArrayList<>(usages);
        var second = new ArrayList<>(usages);
        Collections.shuffle(second, random);
        var pool = Executors.newFixedThreadPool(2);
        var retries = Collections.synchronizedList(new ArrayList<Exception>());
        var posted = new ArrayList<java.util.concurrent.Future<Integer>>();
        try {
            for (var order : List.of(first, second)) {
                posted.add(pool.submit((Callable<Integer>) () -> {
                    int count = 0;
                    for (int from = 0; from < order.size(); from += 20) {
                        var batch = order.subList(from, Math.min(order.size(), from + 20));
                        // a batch that meets the other's entry for the same usage fails and comes again, as a
                        // redelivered message does
                        for (int attempt = 1; ; attempt++) {
                            try {
                                count += bill(batch);
                                break;
                            } catch (RuntimeException e) {
                                retries.add(e);
                                if (attempt == 20) {
                                    throw e;
                                }
                            }
                        }
                    }
                    return count;
                }));
            }
            int total = 0;
            for (var f : posted) {
                total += f.get();
            }
            assertThat(total).as("entries posted, each usage once").isEqualTo(usages.size());
        } finally {
            pool.shutdownNow();
        }

        inTransaction(s -> {
            var em = s.em();
            // every account's cached balance is the sum of its lines, and nothing is held any more
            var off = em.createNativeQuery("SELECT a.kind, a.owner_id, a.balance, COALESCE(SUM(l.amount), 0) "
                    + "FROM billing_accounts a LEFT JOIN journal_lines l ON l.account_id = a.id "
                    + "GROUP BY a.id, a.kind, a.owner_id, a.balance "
                    + "HAVING a.balance <> COALESCE(SUM(l.amount), 0)").getResultList();
            assertThat(off).as("accounts whose balance is not the sum of their lines").isEmpty();
            var held = em.createNativeQuery("SELECT COUNT(*) FROM billing_accounts WHERE held <> 0 AND owner_id >= ?")
                    .setParameter(1, base).getSingleResult();
            assertThat(((Number) held).longValue()).isZero();
            var open = em.createNativeQuery("SELECT COUNT(*) FROM billing_holds WHERE status <> 'SETTLED'")
                    .getSingleResult();
            assertThat(((Number) open).longValue()).isZero();
            var unbalanced = em.createNativeQuery("SELECT entry_id FROM journal_lines GROUP BY entry_id "
                    + "HAVING SUM(amount) <> 0").getResultList();
            assertThat(unbalanced).isEmpty();
            var perReference = em.createNativeQuery("SELECT COUNT(*) FROM journal_entries WHERE reference LIKE ?")
                    .setParameter(1, "usage:" + seed + ":%").getSingleResult();
            assertThat(((Number) perReference).longValue()).isEqualTo(usages.size());
            // the users paid exactly their usages, after their sign-up credit
            for (long user = base; user < base + 8; user++) {
                long owner = user;
                var spent = usages.stream().filter(u -> u.user() == owner).map(Usage::price)
                        .reduce(BigDecimal.ZERO, BigDecimal::add);
                var account = s.ledger().find(AccountKind.USER_BALANCE, owner);
                if (account.isPresent()) {
                    em.refresh(account.get());
                    assertThat(account.get().balance()).isEqualByComparingTo(new BigDecimal("5.00").subtract(spent));
                }
            }
            return null;
        });
    }

    @Test
    void whenABatchWouldTakeAUsersBalanceBelowZeroThenNoneOfItIsPosted() {
        long base = 3_000_000L + new Random().nextInt(1_000_000) * 10L;
        // both users' accounts made first, each with the sign-up credit of 5.00
        inTransaction(s -> List.of(s.balances().of(base), s.balances().of(base + 1)));
        var within = new Usage("usage:overdraft:" + base + ":1", base, base + 5, new BigDecimal("1.00"), null);
        var beyond = new Usage("usage:overdraft:" + base + ":2", base + 1, base + 5, new BigDecimal("5.000001"), null);

        assertThatThrownBy(() -> inTransaction(s -> s.ledger().postAll(List.of(request(within), request(beyond)))))
                .isInstanceOfSatisfying(BusinessException.class,
                        e -> assertThat(e.details()).contains("user " + (base + 1) + " (5.000000 USD)"));

        inTransaction(s -> {
            assertThat(s.balances().of(base).balance()).isEqualByComparingTo("5.00");
            assertThat(s.balances().of(base + 1).balance()).isEqualByComparingTo("5.00");
            assertThat(s.ledger().posted(within.reference())).isFalse();
            assertThat(s.ledger().accounts(AccountKind.DEVELOPER_EARNINGS, List.of(base + 5))).isEmpty();
            return null;
        });
        // the user who can pay is charged once the batch comes without the other
        int posted = inTransaction(s -> s.ledger().postAll(List.of(request(within))));
        assertThat(posted).isEqualTo(1);
        inTransaction(s -> {
            assertThat(s.balances().of(base).balance()).isEqualByComparingTo("4.00");
            return null;
        });
    }
}
