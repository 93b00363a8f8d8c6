package dev.atrium.ai.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.persistence.EntityManager;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.atrium.ai.entity.Tenant;
import dev.atrium.ai.entity.Tier;
import dev.atrium.identity.entity.EmailAddress;
import dev.atrium.identity.entity.Role;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.kv.CountedStore;
import dev.atrium.platform.kv.InMemoryKeyValueStore;
import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.kv.KeyValueStoreException;
import dev.atrium.platform.persistence.StatementCounter;
import dev.atrium.platform.time.MovableClock;

/**
 * Tiers kept between requests ({@link KnownTiers}): two instances on one shared store and database, as a cluster runs
 * them. A change made through {@link TenantService#changeTier} shows on every instance at the next read; only a
 * change made behind the service's back waits for the seconds; a store that cannot answer leaves every read to the
 * database.
 */
class KnownTiersTest {

    private static final AtomicLong NAMES = new AtomicLong();
    private static StatementCounter counter;

    private final MovableClock clock = new MovableClock(Clock.fixed(Instant.parse("2026-11-27T10:00:00Z"),
            ZoneOffset.UTC));
    private final List<String> storeCalls = new ArrayList<>();
    private final AtomicBoolean storeDown = new AtomicBoolean();
    private final KeyValueStore store = failing(CountedStore.of(new InMemoryKeyValueStore(clock), storeCalls));
    private EntityManager em;
    private TenantService instanceA;
    private TenantService instanceB;

    @BeforeAll
    static void database() {
        counter = StatementCounter.database("known-tiers");
    }

    @AfterAll
    static void close() {
        counter.close();
    }

    @BeforeEach
    void wire() {
        em = counter.entityManagers().createEntityManager();
        instanceA = tenants(30);
        instanceB = tenants(30);
    }

    @Test
    void whenATierIsReadTwiceThenTheDatabaseIsAskedOnceAndTheStoreEachTime() {
        long user = user(Tier.PRO);

        assertThat(read(instanceA, user)).isEqualTo(Tier.PRO);
        assertThat(counter.statements()).hasSize(1);
        storeCalls.clear();

        assertThat(read(instanceA, user)).isEqualTo(Tier.PRO);
        assertThat(counter.statements()).isEmpty();
        assertThat(storeCalls).containsExactly("get");
    }

    @Test
    void whenTheTierChangesOnOneInstanceThenTheOtherReadsTheNewTierAtItsNextRequest() {
        long user = user(Tier.FREE);
        assertThat(read(instanceA, user)).isEqualTo(Tier.FREE);
        assertThat(read(instanceB, user)).isEqualTo(Tier.FREE);

        counter.request(em, () -> instanceA.changeTier(user, Tier.ENTERPRISE));

        assertThat(read(instanceB, user)).isEqualTo(Tier.ENTERPRISE);
        assertThat(counter.statements()).hasSize(1);
        assertThat(read(instanceA, user)).isEqualTo(Tier.ENTERPRISE);
    }

    @Test
    void whenAUserWithoutATenantRowGetsATierThenItCountsAtOnce() {
        long user = user(null);
        assertThat(read(instanceB, user)).isEqualTo(Tier.FREE);

        counter.request(em, () -> instanceA.changeTier(user, Tier.PRO));

        assertThat(read(instanceB, user)).isEqualTo(Tier.PRO);
    }

    @Test
    void whenTheRowChangesBehindTheServicesBackThenTheKeptTierIsUsedForAtMostTheSeconds() {
        long user = user(Tier.PRO);
        assertThat(read(instanceA, user)).isEqualTo(Tier.PRO);
        counter.inTransaction(e -> e.createQuery("update Tenant t set t.tier = :tier where t.userId = :user")
                .setParameter("tier", Tier.FREE.value()).setParameter("user", user).executeUpdate());

        clock.advance(Duration.ofSeconds(29));
        assertThat(read(instanceA, user)).isEqualTo(Tier.PRO);

        clock.advance(Duration.ofSeconds(1));
        assertThat(read(instanceA, user)).isEqualTo(Tier.FREE);
    }

    @Test
    void whenTheStoreCannotAnswerThenTheTierIsReadFromTheDatabaseEveryTime() {
        long user = user(Tier.PRO);
        assertThat(read(instanceA, user)).isEqualTo(Tier.PRO);
        storeDown.set(true);

        assertThat(read(instanceA, user)).isEqualTo(Tier.PRO);
        assertThat(counter.statements()).hasSize(1);
        counter.request(em, () -> instanceA.changeTier(user, Tier.FREE));
        assertThat(read(instanceA, user)).isEqualTo(Tier.FREE);
    }

    @Test
    void whenTheSecondsAreZeroThenNothingIsKept() {
        long user = user(Tier.PRO);
        TenantService keepingNothing = tenants(0);
        read(keepingNothing, user);

        assertThat(read(keepingNothing, user)).isEqualTo(Tier.PRO);
        assertThat(counter.statements()).hasSize(1);
    }

    @Test
    void whenReadsAndChangesInterleaveOnTwoInstancesThenEveryReadAnswersWhatTheDatabaseHolds() {
        var random = new Random(20261127);
        long[] users = {user(Tier.FREE), user(Tier.PRO), user(null)};
        Tier[] tiers = Tier.values();
        for (int i = 0; i < 600; i++) {
            long user = users[random.nextInt(users.length)];
            TenantService instance = random.nextBoolean() ? instanceA : instanceB;
            if (random.nextInt(5) == 0) {
                Tier next = tiers[random.nextInt(tiers.length)];
                counter.request(em, () -> instance.changeTier(user, next));
            } else {
                Tier expected = counter.inTransaction(e -> {
                    Tenant tenant = e.find(Tenant.class, user);
                    return tenant == null ? Tier.FREE : tenant.tier();
                });
                assertThat(read(instance, user)).as("read %d of user %d", i, user).isEqualTo(expected);
            }
            if (random.nextInt(10) == 0) {
                clock.advance(Duration.ofSeconds(random.nextInt(40)));
            }
        }
    }

    private Tier read(TenantService tenants, long user) {
        return counter.request(em, () -> tenants.tierOf(user));
    }

    private TenantService tenants(long seconds) {
        var known = new KnownTiers();
        known.store = store;
        known.clock = clock;
        known.config = ConfigDefaults.of(AiConfig.class);
        known.config.tierCacheSeconds = seconds;
        var tenants = new TenantService();
        tenants.em = em;
        tenants.clock = clock;
        tenants.known = known;
        return tenants;
    }

    private long user(Tier tier) {
        return counter.inTransaction(e -> {
            Role role = e.createQuery("select r from Role r where r.name = 'user'", Role.class).getSingleResult();
            String name = "tiers" + NAMES.incrementAndGet();
            var user = User.external(EmailAddress.of(name + "@example.org"), name, role, clock.instant());
            e.persist(user);
            e.flush();
            if (tier != null) {
                e.persist(new Tenant(user.id(), tier, clock.instant()));
            }
            return user.id();
        });
    }

    /** The store, or a store that cannot answer while {@code storeDown} is set. */
    private KeyValueStore failing(KeyValueStore target) {
        return (KeyValueStore) Proxy.newProxyInstance(KeyValueStore.class.getClassLoader(),
                new Class<?>[] {KeyValueStore.class}, (proxy, method, args) -> {
                    if (storeDown.get()) {
                        throw new KeyValueStoreException("unreachable");
                    }
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
