package dev.atrium.platform.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.atrium.platform.events.OutboxTables.Ping;
import dev.atrium.platform.messaging.BrokerConnection;
import dev.atrium.platform.messaging.MessageDrivenBeans;
import dev.atrium.platform.messaging.MessageHandler;

/**
 * The relay's rounds against a real Artemis broker reached over TCP, as in production: the broker stops while events
 * are written, starts again, and every event reaches the consumer exactly once.
 */
class OutboxRelayBrokerTest {

    @TempDir
    Path directory;

    /** First deliveries only: a message published twice would show here twice. */
    private final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    /**
     * The broker may deliver a message again when a consumer loses its session before acknowledging (that is what
     * consumers are idempotent for); such a delivery carries a delivery count above 1 and is not a second publish.
     */
    private final BlockingQueue<String> redelivered = new LinkedBlockingQueue<>();
    private OutboxTables tables;
    private EmbeddedActiveMQ remote;
    private BrokerConnection broker;
    private MessageDrivenBeans beans;
    private int port;

    @BeforeEach
    void start() throws Exception {
        tables = new OutboxTables(Clock.systemUTC());
        try (var socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        startBroker();
        broker = BrokerConnection.remote("tcp://127.0.0.1:" + port);
        beans = new MessageDrivenBeans(broker, Optional.of("tcp://127.0.0.1:" + port));
        beans.consume(new MessageHandler() {
            @Override
            public String queue() {
                return "pings";
            }

            @Override
            public void onMessage(String body, int deliveryCount) {
                (deliveryCount > 1 ? redelivered : received).add(body);
            }
        });
    }

    private void startBroker() throws Exception {
        remote = new EmbeddedActiveMQ().setConfiguration(BrokerConnection.brokerConfiguration(directory)
                .addAcceptorConfiguration("tcp", "tcp://127.0.0.1:" + port));
        remote.start();
    }

    @AfterEach
    void stop() throws Exception {
        beans.close();
        broker.close();
        remote.stop();
        tables.close();
    }

    /** One round of the relay loop: nothing while the broker is away, as {@link OutboxRelay} does. */
    private OutboxStore.Round round() {
        if (!broker.connected()) {
            return new OutboxStore.Round(0, true);
        }
        return tables.inTransaction(s -> s.relayDue(100, events -> OutboxRelay.publish(broker, events)));
    }

    @Test
    void whenTheBrokerStopsWhileEventsAreWrittenThenEachArrivesOnceAfterItStartsAgain() throws Exception {
        for (int i = 0; i < 3; i++) {
            int n = i;
            tables.inTransaction(s -> s.append(new Ping("before-" + n)));
        }
        assertThat(round().sent()).isEqualTo(3);
        // the three delivered and acknowledged before the broker stops: one still in delivery then comes again after
        // the restart, and the broker does not keep delivery counts across one (its count reads 1 again)
        awaitTrue(() -> received.size() == 3 && remote.getActiveMQServer().locateQueue("pings").getMessageCount() == 0);

        remote.stop();
        awaitTrue(() -> !broker.connected());
        for (int i = 0; i < 5; i++) {
            int n = i;
            tables.inTransaction(s -> s.append(new Ping("during-" + n)));
        }
        assertThat(round()).isEqualTo(new OutboxStore.Round(0, true));
        assertThat(tables.inTransaction(OutboxStore::pending)).isEqualTo(5);

        startBroker();
        awaitTrue(broker::connected);
        awaitTrue(() -> round().sent() == 0 && tables.inTransaction(OutboxStore::pending) == 0);

        List<String> all = new ArrayList<>();
        while (all.size() < 8) {
            String body = received.poll(30, TimeUnit.SECONDS);
            assertThat(body).as("message %d", all.size() + 1).isNotNull();
            all.add(body);
        }
        assertThat(received.poll(1, TimeUnit.SECONDS)).isNull();
        assertThat(all).containsExactlyInAnyOrder("before-0", "before-1", "before-2",
                "during-0", "during-1", "during-2", "during-3", "during-4");
    }

    @Test
    void whenAnEventIsPublishedTwiceThenTheBrokerDeliversItOnce() throws Exception {
        var event = tables.inTransaction(s -> s.append(new Ping("twice")));

        // the relay died after the broker took the event and before its commit: the next relay sends it again
        OutboxRelay.publish(broker, List.of(event));
        var later = tables.inTransaction(s -> s.append(new Ping("later")));
        OutboxRelay.publish(broker, List.of(event, later));

        assertThat(received.poll(30, TimeUnit.SECONDS)).isEqualTo("twice");
        assertThat(received.poll(30, TimeUnit.SECONDS)).isEqualTo("later");
        assertThat(received.poll(1, TimeUnit.SECONDS)).isNull();
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 60 s").isLessThan(deadline);
            Thread.sleep(100);
        }
    }
}
