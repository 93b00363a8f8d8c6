package dev.atrium.identity.control.login;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import jakarta.persistence.EntityManager;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.atrium.identity.control.Caller;
import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.identity.control.RequestOrigin;
import dev.atrium.identity.control.account.Accounts;
import dev.atrium.identity.control.audit.Audits;
import dev.atrium.identity.control.token.InvalidTokenException;
import dev.atrium.identity.control.token.KeyRing;
import dev.atrium.identity.control.token.TokenFixture;
import dev.atrium.identity.control.token.TokenType;
import dev.atrium.identity.entity.EmailAddress;
import dev.atrium.identity.entity.Role;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.kv.CountedStore;
import dev.atrium.platform.kv.InMemoryKeyValueStore;
import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.persistence.StatementCounter;

/**
 * Callers kept between bearer requests ({@link KnownCallers}): two instances on one shared store and database, as
 * a cluster runs them, against an authenticator that keeps nothing. A change made through a service (which calls
 * {@code changed}) shows on every instance at the next request; only a change made behind the services' back waits
 * for the seconds. Refreshes find their user the same way, and are held to the same answers.
 */
class KnownCallersTest {

    private static final AtomicLong NAMES = new AtomicLong();
    private static final RequestOrigin ORIGIN = new RequestOrigin("10.0.0.2", "test");
    private static StatementCounter counter;

    private final TokenFixture fixture = new TokenFixture();
    private final List<String> storeCalls = new ArrayList<>();
    private final KeyValueStore store = CountedStore.of(new InMemoryKeyValueStore(fixture.clock), storeCalls);
    private final TokenBlacklist blacklist = new TokenBlacklist();
    private EntityManager em;
    private KnownCallers knownA;
    private KnownCallers knownB;
    private Authenticator instanceA;
    private Authenticator instanceB;
    private Authenticator keepingNothing;
    private LoginService refreshesA;
    private LoginService refreshesB;
    private LoginService refreshingFromNothing;

    @BeforeAll
    static void database() {
        counter = StatementCounter.database("known-callers");
    }

    @AfterAll
    static void close() {
        counter.close();
    }

    @BeforeEach
    void wire() {
        em = counter.entityManagers().createEntityManager();
        blacklist.store = store;
        blacklist.clock = fixture.clock;
        knownA = known(30);
        knownB = known(30);
        instanceA = authenticator(knownA);
        instanceB = authenticator(knownB);
        KnownCallers nothing = known(0);
        keepingNothing = authenticator(nothing);
        refreshesA = logins(knownA);
        refreshesB = logins(knownB);
        refreshingFromNothing = logins(nothing);
    }

    @Test
    void whenTheSameTokenComesAgainThenTheUserIsNotReadAgainAndTheStoreAskedOnce() {
        long ada = newUser();
        String token = access(ada);
        request(instanceA, token);

        storeCalls.clear();
        Caller again = request(instanceA, token);

        assertThat(counter.statements()).isEmpty();
        assertThat(storeCalls).containsExactly("getAll");
        assertThat(again).isEqualTo(request(keepingNothing, token));
    }

    @Test
    void whenAUserIsDeactivatedThroughOneInstanceThenTheOtherRefusesItsTokenAtOnce() {
        long ada = newUser();
        String token = access(ada);
        request(instanceA, token);
        request(instanceB, token);

        change(ada, knownA, u -> u.deactivate(1L, "test", fixture.clock.instant()));

        assertRefused(instanceB, token);
        assertRefused(instanceA, token);
    }

    @Test
    void whenARoleIsGrantedOrRevokedThenTheNextRequestCarriesTheNewPermissions() {
        long ada = newUser();
        String token = access(ada);
        assertThat(request(instanceB, token).groups()).containsExactly("user");

        change(ada, knownA, u -> u.grant(role("admin"), fixture.clock.instant()));
        Caller granted = request(instanceB, token);
        assertThat(granted.groups()).containsExactlyInAnyOrder("user", "admin");
        assertThat(granted).isEqualTo(request(keepingNothing, token));

        change(ada, knownB, u -> u.revoke("admin", fixture.clock.instant()));
        assertThat(request(instanceA, token).groups()).containsExactly("user");
        assertThat(request(instanceB, token).permissions()).isEqualTo(request(keepingNothing, token).permissions());
    }

    @Test
    void whenCredentialsAreRevokedThenTokensIssuedBeforeAreRefusedAndLaterOnesAccepted() {
        long ada = newUser();
        String before = access(ada);
        request(instanceA, before);
        fixture.clock.advance(Duration.ofSeconds(5));

        change(ada, knownB, u -> u.revokeCredentials(fixture.clock.instant()));
        fixture.clock.advance(Duration.ofSeconds(1));
        String after = access(ada);

        assertRefused(instanceA, before);
        assertThat(request(instanceA, after).userId()).isEqualTo(ada);
    }

    @Test
    void whenAKeptTokenIsRevokedThenItIsRefused() {
        long ada = newUser();
        String token = access(ada);
        request(instanceA, token);

        blacklist.add(token, fixture.clock.instant().plusSeconds(900));

        assertRefused(instanceA, token);
    }

    @Test
    void whenAKeptTokenExpiresThenItIsRefused() {
        long ada = newUser();
        String token = access(ada);
        request(instanceA, token);

        fixture.clock.advance(Duration.ofSeconds(900));

        assertRefused(instanceA, token);
    }

    @Test
    void whenTheKeyOfAKeptTokenLeavesTheRingThenTheTokenIsRefused() {
        long ada = newUser();
        String token = access(ada);
        request(instanceA, token);

        fixture.ring.rotate(KeyRing.HS256);
        fixture.store.delete(List.of(kidOf(token)));
        // the ring reads its store again after 30 seconds, as it does without any caller kept
        fixture.clock.advance(Duration.ofSeconds(31));

        assertRefused(instanceA, token);
        assertRefused(keepingNothing, token);
    }

    @Test
    void whenAUserIsChangedBehindTheServicesBackThenTheChangeShowsOnceTheSecondsPass() {
        long ada = newUser();
        String token = access(ada);
        request(instanceA, token);

        change(ada, null, u -> u.rename("renamed-by-hand", fixture.clock.instant()));
        assertThat(request(instanceA, token).username()).isNotEqualTo("renamed-by-hand");

        fixture.clock.advance(Duration.ofSeconds(30));
        assertThat(request(instanceA, token).username()).isEqualTo("renamed-by-hand");
    }

    @Test
    void whenTheStoreLosesTheVersionThenAUserKeptUnderAnotherOneIsReadAgain() {
        long ada = newUser();
        String token = access(ada);
        change(ada, knownA, u -> u.rename("before", fixture.clock.instant()));
        assertThat(request(instanceA, token).username()).isEqualTo("before");

        change(ada, null, u -> u.rename("after", fixture.clock.instant()));
        store.delete(KnownCallers.versionKey(ada));

        assertThat(request(instanceA, token).username()).isEqualTo("after");
    }

    @Test
    void whenNothingMayBeKeptThenEveryRequestReadsTheUser() {
        long ada = newUser();
        String token = access(ada);
        request(keepingNothing, token);

        request(keepingNothing, token);

        assertThat(counter.statements()).hasSize(1);
    }

    @Test
    void whenAUserIsDeactivatedThroughOneInstanceThenTheOtherRefusesItsRefreshTokenAtOnce() {
        long ada = newUser();
        String refresh = refresh(ada);
        refresh(refreshesA, refresh);
        refresh(refreshesB, refresh);

        change(ada, knownA, u -> u.deactivate(1L, "test", fixture.clock.instant()));

        assertThat(refresh(refreshesB, refresh)).isEqualTo("401");
        assertThat(refresh(refreshesA, refresh)).isEqualTo("401");
    }

    @Test
    void whenCredentialsAreRevokedThenAKeptUsersEarlierRefreshTokenIsRefused() {
        long ada = newUser();
        String before = refresh(ada);
        refresh(refreshesA, before);
        fixture.clock.advance(Duration.ofSeconds(5));

        change(ada, knownB, u -> u.revokeCredentials(fixture.clock.instant()));
        fixture.clock.advance(Duration.ofSeconds(1));

        assertThat(refresh(refreshesA, before)).isEqualTo("401");
        assertThat(refresh(refreshesA, refresh(ada))).isEqualTo("user");
    }

    @Test
    void whenARefreshTokenIsRevokedThenAKeptUserDoesNotMakeItValid() {
        long ada = newUser();
        String refresh = refresh(ada);
        refresh(refreshesA, refresh);

        blacklist.add(refresh, fixture.clock.instant().plusSeconds(3600));

        assertThat(refresh(refreshesA, refresh)).isEqualTo("401");
    }

    @Test
    void whenATableIsFullThenItStartsAfresh() {
        Map<Integer, String> table = new HashMap<>();
        for (int i = 0; i < KnownCallers.MAX_ENTRIES; i++) {
            KnownCallers.keep(table, i, "kept");
        }
        KnownCallers.keep(table, 0, "replaced");
        assertThat(table).hasSize(KnownCallers.MAX_ENTRIES).containsEntry(0, "replaced");

        KnownCallers.keep(table, -1, "one more");

        assertThat(table).containsOnly(Map.entry(-1, "one more"));
    }

    /**
     * A seeded run of requests and changes on two instances: valid, expired, revoked and forged tokens, roles granted
     * and revoked, deactivation, revoked credentials, renames, the clock moving. Every answer equals the one of an
     * authenticator that keeps nothing, and a forged token is never accepted, however often its original was.
     */
    @Test
    void whenRequestsAndChangesInterleaveOnTwoInstancesThenEveryAnswerIsTheOneOfNothingKept() {
        var random = new Random(20261126L);
        List<Long> users = List.of(newUser(), newUser(), newUser());
        List<String> tokens = new ArrayList<>();
        users.forEach(u -> tokens.add(access(u)));
        List<String> refreshTokens = new ArrayList<>();
        users.forEach(u -> refreshTokens.add(refresh(u)));
        int accepted = 0;
        int refreshed = 0;
        int refused = 0;
        for (int step = 0; step < 2_000; step++) {
            long user = users.get(random.nextInt(users.size()));
            KnownCallers through = random.nextBoolean() ? knownA : knownB;
            int op = random.nextInt(20);
            if (op == 0) {
                change(user, through, u -> u.grant(role(random.nextBoolean() ? "admin" : "developer"),
                        fixture.clock.instant()));
            } else if (op == 1) {
                change(user, through, u -> {
                    if (u.roleNames().size() > 1) {
                        u.revoke(u.roleNames().get(u.roleNames().size() - 1), fixture.clock.instant());
                    }
                });
            } else if (op == 2) {
                change(user, through, u -> {
                    if (u.isActive()) {
                        u.deactivate(1L, null, fixture.clock.instant());
                    } else {
                        u.reactivate(fixture.clock.instant());
                    }
                });
            } else if (op == 3) {
                change(user, through, u -> u.revokeCredentials(fixture.clock.instant()));
            } else if (op == 4) {
                change(user, through, u -> u.rename("name-" + random.nextInt(1_000), fixture.clock.instant()));
            } else if (op == 5) {
                fixture.clock.advance(Duration.ofSeconds(random.nextInt(40)));
                tokens.add(access(user));
                refreshTokens.add(refresh(user));
            } else if (op == 6 && random.nextInt(3) == 0) {
                List<String> kind = random.nextBoolean() ? tokens : refreshTokens;
                blacklist.add(kind.get(random.nextInt(kind.size())), fixture.clock.instant().plusSeconds(900));
            } else if (op > 6 && random.nextInt(4) == 0) {
                String token = refreshTokens.get(refreshTokens.size() - 1 - random.nextInt(
                        Math.min(4, refreshTokens.size())));
                boolean forge = op >= 17;
                String presented = forge ? forged(token, random) : token;
                String expected = refresh(refreshingFromNothing, presented);
                String actual = refresh(random.nextBoolean() ? refreshesA : refreshesB, presented);
                assertThat(actual).as("step %d, %s refresh token", step, forge ? "forged" : "issued")
                        .isEqualTo(expected);
                if (forge) {
                    assertThat(actual).as("step %d: a forged refresh token", step).isEqualTo("401");
                }
                refreshed += "401".equals(actual) ? 0 : 1;
            } else if (op > 6) {
                // mostly the latest tokens, as clients present them; now and then any issued before
                int pick = random.nextInt(10) < 7 ? tokens.size() - 1 - random.nextInt(Math.min(4, tokens.size()))
                        : random.nextInt(tokens.size());
                String token = tokens.get(pick);
                boolean forge = op >= 17;
                String presented = forge ? forged(token, random) : token;
                Authenticator instance = random.nextBoolean() ? instanceA : instanceB;
                Object expected = answer(keepingNothing, presented);
                Object actual = answer(instance, presented);
                assertThat(actual).as("step %d, %s token", step, forge ? "forged" : "issued").isEqualTo(expected);
                if (forge) {
                    assertThat(actual).as("step %d: a forged token", step).isEqualTo("401");
                }
                if (actual instanceof Caller) {
                    accepted++;
                } else {
                    refused++;
                }
            }
        }
        // the run must have exercised both answers to mean anything
        assertThat(accepted).isGreaterThan(100);
        assertThat(refused).isGreaterThan(100);
        assertThat(refreshed).isGreaterThan(20);
    }

    private Object answer(Authenticator authenticator, String token) {
        try {
            return request(authenticator, token);
        } catch (BusinessException e) {
            assertThat(e.getMessage()).isEqualTo(Authenticator.INVALID);
            return "401";
        }
    }

    /** One character of the token changed (the header, the claims or the signature), or a segment cut short. */
    private static String forged(String token, Random random) {
        char[] chars = token.toCharArray();
        if (random.nextInt(4) == 0) {
            return token.substring(0, token.lastIndexOf('.') + 1 + random.nextInt(10));
        }
        int at;
        do {
            at = random.nextInt(chars.length);
        } while (chars[at] == '.');
        char was = chars[at];
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        char now;
        do {
            now = alphabet.charAt(random.nextInt(alphabet.length()));
        } while (now == was);
        chars[at] = now;
        // a change in a segment's last character may decode alike: that spelling must be refused all the same
        return new String(chars);
    }

    private void assertRefused(Authenticator authenticator, String token) {
        assertThatThrownBy(() -> request(authenticator, token)).isInstanceOf(BusinessException.class)
                .hasMessage(Authenticator.INVALID);
    }

    private Caller request(Authenticator authenticator, String token) {
        return counter.request(em, () -> authenticator.accessToken(token));
    }

    /** The role of the access token a refresh answers with, or "401". */
    private String refresh(LoginService logins, String refreshToken) {
        try {
            String access = counter.request(em, () -> logins.refresh(refreshToken, ORIGIN));
            return fixture.tokens.verify(access, TokenType.ACCESS).role();
        } catch (BusinessException e) {
            assertThat(e.getMessage()).isEqualTo(Authenticator.INVALID);
            return "401";
        } catch (InvalidTokenException e) {
            throw new AssertionError("a refresh answered with an access token that does not verify", e);
        }
    }

    private String refresh(long userId) {
        return fixture.tokens.issue(TokenType.REFRESH, userId, "user");
    }

    private String access(long userId) {
        return fixture.tokens.issue(TokenType.ACCESS, userId, "user");
    }

    private String kidOf(String token) {
        try {
            return com.nimbusds.jwt.SignedJWT.parse(token).getHeader().getKeyID();
        } catch (java.text.ParseException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A change committed as a service makes it; {@code through} is the instance whose service announces it. */
    private void change(long userId, KnownCallers through, Consumer<User> change) {
        counter.inTransaction(em -> {
            change.accept(em.find(User.class, userId));
            return null;
        });
        if (through != null) {
            through.changed(userId);
        }
    }

    private Role role(String name) {
        return em.createQuery("select r from Role r where r.name = :n", Role.class).setParameter("n", name)
                .getSingleResult();
    }

    private long newUser() {
        return counter.inTransaction(em -> {
            Role user = em.createQuery("select r from Role r where r.name = 'user'", Role.class).getSingleResult();
            long n = NAMES.incrementAndGet();
            var created = User.external(EmailAddress.of("known" + n + "@example.org"), "known" + n, user,
                    fixture.clock.instant());
            em.persist(created);
            em.flush();
            return created.id();
        });
    }

    private KnownCallers known(long seconds) {
        var users = Accounts.users(em);
        var permissions = Accounts.permissions(em);
        var known = new KnownCallers();
        known.config = ConfigDefaults.of(IdentityConfig.class);
        known.store = store;
        known.clock = fixture.clock;
        known.tokens = fixture.tokens;
        known.users = users;
        known.permissions = permissions;
        known.config.callerCacheSeconds = seconds;
        return known;
    }

    /** Refreshes as an instance's login service makes them: its user kept by {@code known}, never alerted. */
    private LoginService logins(KnownCallers known) {
        var audit = Audits.service(em, fixture.clock);
        var signals = new SecuritySignals();
        signals.config = ConfigDefaults.of(IdentityConfig.class);
        signals.store = store;
        signals.clock = fixture.clock;
        signals.locator = new PrefixNetworkLocator();
        signals.config.alertsRefreshMax = Integer.MAX_VALUE;
        signals.config.alertsRefreshWindowMinutes = 10;
        signals.config.alertsRefreshTheftWindowMinutes = 10;
        signals.config.alertsRefreshTheftRevoke = "true";
        var logins = new LoginService();
        logins.tokens = fixture.tokens;
        logins.blacklist = blacklist;
        logins.known = known;
        logins.signals = signals;
        logins.audit = audit;
        return logins;
    }

    private Authenticator authenticator(KnownCallers known) {
        var authenticator = new Authenticator();
        authenticator.known = known;
        return authenticator;
    }
}
