package dev.atrium.platform.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.atrium.platform.PlatformConfig;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.events.OutboxTables.Ping;
import dev.atrium.platform.messaging.MessagingException;
import dev.atrium.platform.time.MovableClock;

/** The outbox's rows and the relay's rounds over them, without a container. */
class OutboxStoreTest {

    private static final MovableClock CLOCK = new MovableClock(
            Clock.fixed(Instant.parse("2026-03-01T10:00:00Z"), ZoneOffset.UTC));
    private static OutboxTables tables;

    private final List<String> published = Collections.synchronizedList(new ArrayList<>());

    @BeforeAll
    static void migrate() {
        tables = new OutboxTables(CLOCK);
    }

    @AfterAll
    static void close() {
        tables.close();
    }

    @BeforeEach
    void empty() {
        tables.clear();
        CLOCK.reset();
    }

    private OutboxStore.Publisher broker() {
        return events -> events.forEach(event -> published.add(event.payload()));
    }

    private static OutboxStore.Publisher brokerDown() {
        return events -> {
            throw new MessagingException("Cannot send to " + events.get(0).destination(), null);
        };
    }

    private static OutboxStore.Round relay(int max, OutboxStore.Publisher publisher) {
        return tables.inTransaction(s -> s.relayDue(max, publisher));
    }

    private OutboxEvent row(String payload) {
        return tables.inTransaction(s -> s.em.createQuery("SELECT e FROM OutboxEvent e WHERE e.payload = :p",
                OutboxEvent.class).setParameter("p", payload).getSingleResult());
    }

    @Test
    void whenTheBusinessTransactionCommitsThenItsEventIsAPendingRow() {
        tables.inTransaction(s -> s.append(new Ping("a")));

        var row = row("a");
        assertThat(row.type()).isEqualTo("Ping");
        assertThat(row.destination()).isEqualTo("pings");
        assertThat(row.broadcast()).isFalse();
        assertThat(row.sentAt()).isNull();
        assertThat(row.attempts()).isZero();
        assertThat(pending()).isEqualTo(1);
    }

    @Test
    void whenTheBusinessTransactionRollsBackThenNoEventRemains() {
        assertThatThrownBy(() -> tables.inTransaction(s -> {
            s.append(new Ping("lost"));
            throw new IllegalStateException("business rule broken");
        })).isInstanceOf(IllegalStateException.class);

        assertThat(pending()).isZero();
        assertThat(relay(100, broker())).isEqualTo(new OutboxStore.Round(0, false));
        assertThat(published).isEmpty();
    }

    @Test
    void whenTheRelayRunsThenEveryEventIsPublishedOnceInOrderAndMarkedSent() {
        for (int i = 0; i < 5; i++) {
            int n = i;
            tables.inTransaction(s -> s.append(new Ping("e" + n)));
            CLOCK.advance(Duration.ofMillis(1));
        }

        assertThat(relay(3, broker())).isEqualTo(new OutboxStore.Round(3, false));
        assertThat(relay(3, broker())).isEqualTo(new OutboxStore.Round(2, false));
        assertThat(relay(3, broker())).isEqualTo(new OutboxStore.Round(0, false));

        assertThat(published).containsExactly("e0", "e1", "e2", "e3", "e4");
        assertThat(row("e0").sentAt()).isNotNull();
        assertThat(row("e0").attempts()).isEqualTo(1);
        assertThat(pending()).isZero();
    }

    @Test
    void whenTheBrokerIsDownThenEventsStayAndAreSentOnceWhenItIsBack() {
        tables.inTransaction(s -> s.append(new Ping("first")));
        CLOCK.advance(Duration.ofMillis(1));
        tables.inTransaction(s -> s.append(new Ping("second")));

        assertThat(relay(100, brokerDown())).isEqualTo(new OutboxStore.Round(0, true));

        var failed = row("first");
        assertThat(failed.sentAt()).isNull();
        assertThat(failed.attempts()).isEqualTo(1);
        assertThat(failed.lastError()).isEqualTo("Cannot send to pings");
        assertThat(failed.nextAttemptAt()).isEqualTo(CLOCK.instant().plusSeconds(1));
        assertThat(row("second").attempts()).isZero();

        // the broker is back: the row that failed waits its backoff, the next one goes at once
        assertThat(relay(100, broker())).isEqualTo(new OutboxStore.Round(1, false));
        assertThat(published).containsExactly("second");
        CLOCK.advance(Duration.ofSeconds(1));
        assertThat(relay(100, broker())).isEqualTo(new OutboxStore.Round(1, false));
        assertThat(relay(100, broker())).isEqualTo(new OutboxStore.Round(0, false));

        assertThat(published).containsExactly("second", "first");
        assertThat(row("first").attempts()).isEqualTo(2);
        assertThat(row("first").nextAttemptAt()).isNull();
    }

    @Test
    void whenPublishingKeepsFailingThenTheBackoffDoublesUpToItsLimit() {
        var store = new OutboxStore();
        store.config = ConfigDefaults.of(PlatformConfig.class);
        store.config.outboxMaxBackoffSeconds = 30;

        assertThat(List.of(1, 2, 3, 4, 5, 6, 7, 100).stream().map(store::backoff).map(Duration::toSeconds))
                .containsExactly(1L, 2L, 4L, 8L, 16L, 30L, 30L, 30L);
    }

    @Test
    void whenTwoRelaysRunAtOnceThenTheyShareTheRowsAndNoneIsPublishedTwice() throws Exception {
        for (int i = 0; i < 10; i++) {
            int n = i;
            tables.inTransaction(s -> s.append(new Ping("r" + n)));
            CLOCK.advance(Duration.ofMillis(1));
        }
        var holding = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        List<String> first = Collections.synchronizedList(new ArrayList<>());
        var firstRelay = CompletableFuture.supplyAsync(() -> tables.inTransaction(s -> s.relayDue(4, events -> {
            events.forEach(event -> first.add(event.payload()));
            holding.countDown();
            await(release);
        })));
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();

        // while the first relay holds its batch locked, a second one takes the rows after it
        List<String> second = new ArrayList<>();
        var round = relay(100, events -> events.forEach(event -> second.add(event.payload())));
        release.countDown();
        firstRelay.get(10, TimeUnit.SECONDS);

        assertThat(first).containsExactly("r0", "r1", "r2", "r3");
        if (OutboxTables.onPostgres()) {
            assertThat(round.sent()).isEqualTo(6);
            assertThat(second).containsExactly("r4", "r5", "r6", "r7", "r8", "r9");
        } else {
            // H2 skips a locked result as a whole rather than row by row: the second relay waits for the next round
            assertThat(second).doesNotContainAnyElementsOf(first);
            relay(100, events -> events.forEach(event -> second.add(event.payload())));
        }
        assertThat(second).containsExactly("r4", "r5", "r6", "r7", "r8", "r9");
        assertThat(pending()).isZero();
    }

    @Test
    void whenSentEventsArePastTheirRetentionThenPruningDeletesOnlyThem() {
        tables.inTransaction(s -> s.append(new Ping("old")));
        tables.inTransaction(s -> s.relayDue(100, broker()));
        CLOCK.advance(Duration.ofHours(2));
        tables.inTransaction(s -> s.append(new Ping("recent")));
        tables.inTransaction(s -> s.relayDue(100, broker()));
        tables.inTransaction(s -> s.append(new Ping("pending")));

        int pruned = tables.inTransaction(s -> s.prune(CLOCK.instant().minus(Duration.ofHours(1))));

        assertThat(pruned).isEqualTo(1);
        List<String> left = tables.inTransaction(s -> s.em.createQuery("SELECT e.payload FROM OutboxEvent e ORDER BY"
                + " e.createdAt", String.class).getResultList());
        assertThat(left).containsExactly("recent", "pending");
    }

    @Test
    void whenAnEventIsMalformedThenItIsRefusedBeforeItIsWritten() {
        assertThatThrownBy(() -> new OutboxEvent(new Ping("x".repeat(OutboxEvent.MAX_PAYLOAD + 1)), CLOCK.instant()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutboxEvent(new ApplicationEvent() {
            @Override
            public String destination() {
                return " ";
            }

            @Override
            public String payload() {
                return "1";
            }
        }, CLOCK.instant())).isInstanceOf(IllegalArgumentException.class);
    }

    private static long pending() {
        return tables.inTransaction(OutboxStore::pending);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
