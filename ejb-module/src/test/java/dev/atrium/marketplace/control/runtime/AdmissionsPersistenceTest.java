package dev.atrium.marketplace.control.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.atrium.marketplace.control.CallFunds;
import dev.atrium.marketplace.entity.Pricing;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.persistence.TestDatabases;

/**
 * Admission's one transaction ({@link Admissions#admit}) on the JPA provider the server uses, over H2 in PostgreSQL
 * mode ({@code -Datrium.test.postgres-url=...} runs it against an empty PostgreSQL): what it reserves is all or
 * nothing, and concurrent callers never take more free calls or budget than there is.
 */
class AdmissionsPersistenceTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final Pricing FREEMIUM = Pricing.of("{\"model\":\"freemium\",\"price_usd\":0.5,\"free_quota\":3}");
    private static final Pricing PER_CALL = Pricing.of("{\"model\":\"per_call\",\"price_usd\":0.25}");

    private static EntityManagerFactory factory;

    private final Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
    private final List<BigDecimal> held = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean balanceRefuses;

    @BeforeAll
    static void migrate() {
        var dataSource = TestDatabases.dataSource("admissions");
        TestDatabases.migrate(dataSource);
        factory = TestDatabases.entityManagers(dataSource);
    }

    @AfterAll
    static void close() {
        factory.close();
    }

    private <T> T inTransaction(Function<Admissions, T> work) {
        return TestDatabases.inTransaction(factory, em -> work.apply(admissions(em)));
    }

    private Admissions admissions(EntityManager em) {
        var admissions = new Admissions();
        admissions.em = em;
        admissions.clock = clock;
        admissions.balances = new CallFunds() {
            @Override
            public UUID hold(long userId, BigDecimal amount) {
                if (balanceRefuses) {
                    throw new BusinessException(Problem.PAYMENT_REQUIRED, "Insufficient balance", "none left");
                }
                held.add(amount);
                return UUID.randomUUID();
            }

            @Override
            public void claim(UUID holdId) {
            }

            @Override
            public boolean release(UUID holdId) {
                return true;
            }
        };
        return admissions;
    }

    private Admissions.Admitted own(long user, UUID agent, Pricing pricing) {
        return inTransaction(a -> a.admit(user, agent, "echo", pricing, UUID.randomUUID(), null, null, false));
    }

    @Test
    void whenTheHoldOfTheMonthsFeeIsRefusedThenTheMonthIsNotClaimedAndTheNextCallPaysIt() {
        UUID agent = UUID.randomUUID();
        var subscription = Pricing.of("{\"model\":\"subscription\",\"price_usd\":5}");
        balanceRefuses = true;

        assertThatThrownBy(() -> own(1, agent, subscription)).isInstanceOf(BusinessException.class)
                .extracting(e -> ((BusinessException) e).problem()).isEqualTo(Problem.PAYMENT_REQUIRED);
        balanceRefuses = false;
        var next = own(1, agent, subscription);
        var after = own(1, agent, subscription);

        assertThat(next.paysFee()).isTrue();
        assertThat(next.holdId()).isNotNull();
        assertThat(after.paysFee()).isFalse();
        assertThat(after.holdId()).as("the month is paid: nothing more to hold").isNull();
    }

    @Test
    void whenTheCallerCapsThePriceBelowTheMostTheCallCostsThenNothingIsReserved() {
        UUID agent = UUID.randomUUID();
        var quota = Pricing.of("{\"model\":\"freemium\",\"price_usd\":0.5,\"free_quota\":1}");
        own(4, agent, quota);

        assertThatThrownBy(() -> inTransaction(a -> a.admit(4, agent, "echo", quota, UUID.randomUUID(), null,
                new BigDecimal("0.10"), false))).isInstanceOf(BusinessException.class);

        assertThat(held).isEmpty();
    }

    @Test
    void whenManyCallersRaceForTheMonthsFreeCallsThenExactlyTheQuotaIsTakenAndTheRestIsHeld() throws Exception {
        UUID agent = UUID.randomUUID();

        var admitted = concurrently(8, () -> own(5, agent, FREEMIUM));

        assertThat(admitted.stream().filter(Admissions.Admitted::freeSlot).count()).isEqualTo(3);
        assertThat(admitted.stream().filter(a -> a.holdId() != null).count()).isEqualTo(5);
        assertThat(held).hasSize(5).allSatisfy(amount -> assertThat(amount).isEqualByComparingTo("0.5"));
    }

    @Test
    void whenManyDependencyCallsRaceForABudgetThenTheyNeverSpendMoreThanItsCapAndTheRefusalsAreCounted()
            throws Exception {
        UUID root = UUID.randomUUID();
        inTransaction(a -> {
            a.openBudget(root, 6, new BigDecimal("1.00"), BigDecimal.ZERO);
            return null;
        });

        var admitted = concurrently(8, () -> inTransaction(a -> a.admit(6, UUID.randomUUID(), "dep", PER_CALL,
                UUID.randomUUID(), root, null, false)));

        assertThat(admitted.stream().filter(a -> !a.overBudget()).count()).isEqualTo(4);
        assertThat(admitted.stream().filter(Admissions.Admitted::overBudget))
                .allSatisfy(a -> assertThat(a.holdId()).isNull());
        var budget = inTransaction(a -> a.budget(root)).orElseThrow();
        assertThat(budget.spent()).isEqualByComparingTo("1.00");
        assertThat(budget.refused()).isEqualTo(4);
    }

    private static <T> List<T> concurrently(int threads, Callable<T> task) throws Exception {
        var pool = Executors.newFixedThreadPool(threads);
        try {
            var start = new CountDownLatch(1);
            var futures = new ArrayList<Future<T>>();
            for (int i = 0; i < threads; i++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return task.call();
                }));
            }
            start.countDown();
            var results = new ArrayList<T>();
            for (var f : futures) {
                results.add(f.get());
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
