package dev.atrium.identity.control.login;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

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
import dev.atrium.identity.control.password.PasswordHasher;
import dev.atrium.identity.control.token.TokenFixture;
import dev.atrium.identity.control.token.TokenType;
import dev.atrium.identity.entity.EmailAddress;
import dev.atrium.identity.entity.Role;
import dev.atrium.identity.entity.SecurityAlert;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.kv.CountedStore;
import dev.atrium.platform.kv.InMemoryKeyValueStore;
import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.persistence.StatementCounter;

/**
 * The token paths' statements, counted at the JDBC driver, with the services wired as the container wires them
 * (key ring and store in memory, the database real): a bearer request loads its caller in one statement (the user
 * with all its roles, here two) and asks the store once, and none when the same token comes again; a refresh
 * reads the user as a bearer request does (kept under its version) and writes its audit entry: two statements the
 * first time, one after, also when the user refreshes so often that the refresh-frequency alert is under way (its
 * repeats are counted in the store, not on the alert's row); it asks the store three times (revoked and the user's
 * version in one call, the refresh count, the token's last place read and replaced in one call). A password login of
 * a user without failed logins reads the user, writes its audit entry and asks the store six times; failures on
 * record are cleared by it.
 */
class TokenPathQueriesTest {

    private static final RequestOrigin ORIGIN = new RequestOrigin("10.0.0.2", "test");
    private static final String GRACE = "grace@example.org";
    private static final String PASSWORD = "Grace-Passw0rd";
    private static final PasswordHasher HASHER = PasswordHasher.standalone();

    private static StatementCounter counter;
    private static long userId;

    private final TokenFixture fixture = new TokenFixture();
    private final List<String> storeCalls = new ArrayList<>();
    /** The in-memory store behind a proxy that names each call: each is a round trip to Redis in production. */
    private final KeyValueStore store = CountedStore.of(new InMemoryKeyValueStore(fixture.clock), storeCalls);
    private EntityManager em;
    private LoginService login;
    private Authenticator authenticator;
    private SecuritySignals signals;

    @BeforeAll
    static void seed() {
        counter = StatementCounter.database("token-paths");
        EntityManager em = counter.entityManagers().createEntityManager();
        em.getTransaction().begin();
        Role user = em.createQuery("select r from Role r where r.name = 'user'", Role.class).getSingleResult();
        Role developer = em.createQuery("select r from Role r where r.name = 'developer'", Role.class)
                .getSingleResult();
        var ada = User.external(EmailAddress.of("ada@example.org"), "ada", user, Instant.parse("2026-11-01T00:00:00Z"));
        ada.grant(developer, Instant.parse("2026-11-01T00:00:00Z"));
        em.persist(ada);
        var grace = User.external(EmailAddress.of(GRACE), "grace", user, Instant.parse("2026-11-01T00:00:00Z"));
        grace.changePasswordHash(HASHER.hash(PASSWORD), Instant.parse("2026-11-01T00:00:00Z"));
        em.persist(grace);
        em.getTransaction().commit();
        userId = ada.id();
        em.close();
    }

    @AfterAll
    static void close() {
        counter.close();
    }

    @BeforeEach
    void wire() {
        em = counter.entityManagers().createEntityManager();
        var users = Accounts.users(em);
        var permissions = Accounts.permissions(em);
        var blacklist = new TokenBlacklist();
        blacklist.store = store;
        blacklist.clock = fixture.clock;
        var audit = Audits.service(em, fixture.clock);
        var alerts = new AlertService();
        alerts.config = ConfigDefaults.of(IdentityConfig.class);
        alerts.em = em;
        alerts.audit = audit;
        alerts.store = store;
        alerts.clock = fixture.clock;
        alerts.config.alertsCooldownMinutes = 60;
        alerts.self = alerts;
        signals = new SecuritySignals();
        signals.config = ConfigDefaults.of(IdentityConfig.class);
        signals.store = store;
        signals.clock = fixture.clock;
        signals.alerts = alerts;
        signals.locator = new PrefixNetworkLocator();
        signals.config.alertsRefreshMax = 30;
        signals.config.alertsRefreshWindowMinutes = 10;
        signals.config.alertsRefreshTheftWindowMinutes = 10;
        signals.config.alertsRefreshTheftRevoke = "true";
        signals.config.alertsLocationWindowMinutes = 60;
        signals.config.alertsPasswordResetMax = 5;
        signals.config.alertsPasswordResetWindowMinutes = 60;
        login = new LoginService();
        login.users = users;
        login.tokens = fixture.tokens;
        login.blacklist = blacklist;
        login.signals = signals;
        login.audit = audit;
        var known = new KnownCallers();
        known.config = ConfigDefaults.of(IdentityConfig.class);
        known.store = store;
        known.clock = fixture.clock;
        known.tokens = fixture.tokens;
        known.users = users;
        known.permissions = permissions;
        known.config.callerCacheSeconds = 30;
        login.known = known;
        login.hasher = HASHER;
        var guard = new LoginGuard();
        guard.store = store;
        guard.clock = fixture.clock;
        login.guard = guard;
        // the monitor's counting without its metric registry, which only the container provides
        var monitor = new LoginMonitor() {
            @Override
            public void record(boolean success, String address) {
                count(success, address);
            }
        };
        monitor.store = store;
        monitor.clock = fixture.clock;
        monitor.config = ConfigDefaults.of(IdentityConfig.class);
        monitor.alerts = alerts;
        monitor.config.alertsLoginMinAttempts = 20;
        monitor.config.alertsLoginMinSuccessPercent = 95;
        monitor.config.alertsLoginMaxFailuresPerAddress = 50;
        login.monitor = monitor;
        authenticator = new Authenticator();
        authenticator.known = known;
        authenticator.users = users;
        authenticator.permissions = permissions;
        // the catalog is read once per instance, at the first request: not what these tests count
        permissions.permissionsOf(java.util.List.of("user"));
    }

    private <T> T request(Supplier<T> work) {
        return counter.request(em, work);
    }

    @Test
    void whenABearerRequestIsAuthenticatedThenOneStatementReadsTheUserWithItsRoles() {
        String access = fixture.tokens.issue(TokenType.ACCESS, userId, "developer");
        Caller caller = request(() -> authenticator.bearer(access));
        assertThat(caller.userId()).isEqualTo(userId);
        assertThat(caller.permissions()).isNotEmpty();
        assertThat(caller.groups()).containsExactlyInAnyOrder("user", "developer");
        assertThat(counter.statements()).hasSize(1);
        // revoked, and the user's version: one round trip
        assertThat(storeCalls).containsExactly("getAll");
    }

    @Test
    void whenTheSameBearerTokenComesAgainThenNoStatementAndOneStoreCall() {
        String access = fixture.tokens.issue(TokenType.ACCESS, userId, "developer");
        request(() -> authenticator.bearer(access));
        storeCalls.clear();

        Caller caller = request(() -> authenticator.bearer(access));

        assertThat(caller.groups()).containsExactlyInAnyOrder("user", "developer");
        assertThat(counter.statements()).isEmpty();
        assertThat(storeCalls).containsExactly("getAll");
    }

    @Test
    void whenAUserWithoutFailedLoginsLogsInThenTwoStatementsAndSixStoreCalls() {
        var tokens = request(() -> login.login(GRACE, PASSWORD, new RequestOrigin("10.0.7.1", "test")));
        assertThat(tokens.accessToken()).isNotBlank();
        // the user, the audit entry
        assertThat(counter.statementsButSequences()).hasSize(2);
        // the address's window and its count, the account's failures and last failure in one call, the hour's
        // count of successes and the failures read beside it, the user's last place read and replaced in one call;
        // nothing to clear, as no failure was on record
        assertThat(storeCalls).containsExactly("setIfAbsent", "increment", "getAll", "increment", "count",
                "getAndSet");
    }

    @Test
    void whenAUserWithAFailedLoginLogsInThenTheFailuresAreClearedAndNoLongerCount() {
        var origin = new RequestOrigin("10.0.7.2", "test");
        assertThatThrownBy(() -> request(() -> login.login(GRACE, "Wrong-Passw0rd", origin)))
                .isInstanceOf(BusinessException.class);
        assertThat(store.get("login-fail:" + GRACE + ":count")).contains("1");
        storeCalls.clear();

        request(() -> login.login(GRACE, PASSWORD, origin));

        assertThat(storeCalls).containsSubsequence("getAll", "delete", "delete");
        assertThat(store.getAll(List.of("login-fail:" + GRACE + ":count", "login-fail:" + GRACE + ":last")))
                .allMatch(Optional::isEmpty);
    }

    @Test
    void whenARefreshTokenIsUsedThenTheUserIsReadAndTheRefreshAudited() {
        String refresh = fixture.tokens.issue(TokenType.REFRESH, userId, "developer");
        request(() -> login.refresh(refresh, ORIGIN));
        assertThat(counter.statementsButSequences()).hasSize(2);
        assertThat(counter.statementsButSequences().get(1)).containsIgnoringCase("insert into audit_logs");

        request(() -> login.refresh(refresh, ORIGIN));
        // the user kept under its version: only the audit entry
        assertThat(counter.statementsButSequences()).hasSize(1);
        assertThat(counter.statementsButSequences().get(0)).containsIgnoringCase("insert into audit_logs");
    }

    /** One client refreshing in a loop: the refresh-frequency alert's episode is under way, each refresh repeats it. */
    @Test
    void whenRefreshesComeInAStormThenTheAlertsRepeatIsOneStoreCallAndNoStatement() {
        String refresh = fixture.tokens.issue(TokenType.REFRESH, userId, "developer");
        request(() -> login.refresh(refresh, ORIGIN));
        signals.config.alertsRefreshMax = 0;
        store.setIfAbsent("alert:cool:refresh_frequency:user:" + userId, "1", java.time.Duration.ofMinutes(60));
        storeCalls.clear();

        request(() -> login.refresh(refresh, ORIGIN));

        assertThat(storeCalls).containsExactly("getAll", "incrementAndSwap", "beginOrRepeat");
        assertThat(counter.statementsButSequences()).singleElement().asString()
                .containsIgnoringCase("insert into audit_logs");
        assertThat(store.get("alert:repeats:count:refresh_frequency:user:" + userId)).contains("1");
    }

    @Test
    void whenARefreshTokenIsUsedThenTheStoreIsAskedTwice() {
        String refresh = fixture.tokens.issue(TokenType.REFRESH, userId, "developer");
        request(() -> login.refresh(refresh, ORIGIN));
        storeCalls.clear();

        request(() -> login.refresh(refresh, ORIGIN));

        // revoked and the user's version; the user's refresh counted and the token's last place read and replaced
        assertThat(storeCalls).containsExactly("getAll", "incrementAndSwap");
    }

    @Test
    void whenTheUserRefreshesOftenEnoughToRaiseTheAlertThenLaterRefreshesCostNoMore() {
        String refresh = fixture.tokens.issue(TokenType.REFRESH, userId, "developer");
        // the alert's episode under way, as its first raise leaves it (record and cool-down)
        store.setIfAbsent("alert:cool:refresh_frequency:user:" + userId, "1", Duration.ofMinutes(60));
        request(() -> {
            em.persist(new SecurityAlert("refresh_frequency", "user:" + userId, "storm", fixture.clock.instant()));
            return null;
        });
        for (int i = 0; i < 31; i++) {
            fixture.clock.advance(Duration.ofMillis(100));
            request(() -> login.refresh(refresh, ORIGIN));
        }
        // past the maximum of 30 refreshes a window: every refresh now signals the alert again
        for (int i = 0; i < 50; i++) {
            fixture.clock.advance(Duration.ofMillis(100));
            String access = request(() -> login.refresh(refresh, ORIGIN));
            assertThat(access).isNotBlank();
            assertThat(counter.statementsButSequences()).as("refresh %d during the alert's cool-down", i)
                    .hasSize(1);
        }
    }
}
