package dev.atrium.identity.control.login;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.identity.entity.SecurityAlert;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.kv.InMemoryKeyValueStore;
import dev.atrium.platform.persistence.StatementCounter;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.time.MovableClock;

/**
 * Repeats of an open alert during its cool-down: counted in the shared store, not on the alert's row, so a storm
 * (one user refreshing a token thousands of times a minute) does not queue every request behind one row lock; the
 * list shows the exact count, and the row is brought up to date every hundredth repeat.
 */
class AlertRepeatsTest {

    private static final Instant T0 = Instant.parse("2026-11-26T06:00:00Z");

    private static StatementCounter counter;

    private final MovableClock clock = new MovableClock(Clock.fixed(T0, ZoneOffset.UTC));
    private final InMemoryKeyValueStore store = new InMemoryKeyValueStore(clock);

    @BeforeAll
    static void migrate() {
        counter = StatementCounter.database("alert-repeats");
    }

    @AfterAll
    static void close() {
        counter.close();
    }

    private <T> T inTransaction(Function<AlertService, T> work) {
        return counter.inTransaction(em -> {
            var service = new AlertService();
            service.config = ConfigDefaults.of(IdentityConfig.class);
            service.em = em;
            service.store = store;
            service.clock = clock;
            service.config.alertsCooldownMinutes = 60;
            service.self = service;
            return work.apply(service);
        });
    }

    /** An episode under way: its record and its cool-down, as the first raise leaves them. */
    private long open(String kind, String subject) {
        store.setIfAbsent("alert:cool:" + kind + ":" + subject, "1", Duration.ofMinutes(60));
        return inTransaction(service -> {
            var alert = new SecurityAlert(kind, subject, "storm", clock.instant());
            service.em.persist(alert);
            service.em.flush();
            return alert.id();
        });
    }

    private SecurityAlert listed(String kind) {
        var query = new ListQuery(1, 20, false, null, 20, ListQuery.DEFAULT_SORT,
                java.util.Map.of("kind", java.util.List.of(kind)), null, null, null, java.util.List.of());
        return inTransaction(service -> service.list(query)).items().get(0);
    }

    @Test
    void whenAnAlertRepeatsDuringItsCooldownThenNoStatementReachesTheDatabase() {
        open("refresh_frequency", "user:7");
        counter.reset();
        for (int i = 0; i < 99; i++) {
            clock.advance(Duration.ofSeconds(1));
            Optional<SecurityAlert> raised = inTransaction(service -> service.raise("refresh_frequency", "user:7",
                    "again"));
            assertThat(raised).isEmpty();
        }
        assertThat(counter.statements()).isEmpty();
    }

    @Test
    void whenListedThenTheCountAndLastSeenAreExact() {
        open("storm", "user:8");
        for (int i = 0; i < 250; i++) {
            clock.advance(Duration.ofSeconds(1));
            inTransaction(service -> service.raise("storm", "user:8", "again"));
        }
        var alert = listed("storm");
        assertThat(alert.count()).isEqualTo(251);
        assertThat(alert.lastSeen()).isEqualTo(clock.instant());
        // listed again: nothing counted twice
        assertThat(listed("storm").count()).isEqualTo(251);
    }

    @Test
    void whenTheHundredthRepeatComesThenTheRowIsBroughtUpToDate() {
        long id = open("flood", "address:10.1.2.3");
        for (int i = 0; i < AlertService.FOLD_EVERY; i++) {
            inTransaction(service -> service.raise("flood", "address:10.1.2.3", "again"));
        }
        var stored = inTransaction(service -> service.em.find(SecurityAlert.class, id));
        assertThat(stored.count()).isEqualTo(1 + AlertService.FOLD_EVERY);
    }

    @Test
    void whenAcknowledgedThenTheRepeatsBeforeItAreCounted() {
        long id = open("burst", "all");
        for (int i = 0; i < 7; i++) {
            inTransaction(service -> service.raise("burst", "all", "again"));
        }
        // an acknowledgement is audited; this test looks at the alert only
        var alert = inTransaction(service -> {
            var found = service.em.find(SecurityAlert.class, id);
            service.fold(found);
            return found;
        });
        assertThat(alert.count()).isEqualTo(8);
    }
}
