package dev.atrium.platform.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.atrium.platform.messaging.BrokerConnection;

/**
 * The relay's throughput: events written to the outbox, then drained to a real Artemis broker over TCP in the
 * relay's rounds (lock a batch, publish each as a durable message, mark sent, commit). Runs only with
 * {@code -Datrium.bench.outbox=true} ({@code scripts/bench-outbox}, on PostgreSQL); it measures, it asserts nothing
 * about speed.
 */
class OutboxThroughputBench {

    @TempDir
    Path directory;

    @Test
    void whenManyEventsWaitThenTheRelayDrainsThemAndReportsItsThroughput() throws Exception {
        assumeTrue(Boolean.getBoolean("atrium.bench.outbox"), "a benchmark: -Datrium.bench.outbox=true");
        int events = Integer.getInteger("atrium.bench.events", 10_000);
        int batch = Integer.getInteger("atrium.bench.batch", 200);
        int port;
        try (var socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        var broker = new EmbeddedActiveMQ().setConfiguration(BrokerConnection.brokerConfiguration(directory)
                .addAcceptorConfiguration("tcp", "tcp://127.0.0.1:" + port));
        broker.start();
        try (var tables = new OutboxTables(Clock.systemUTC());
             var connection = BrokerConnection.remote("tcp://127.0.0.1:" + port)) {
            for (int round = 0; round < 2; round++) {
                // the first round warms up the JIT, the connection pool and the broker's journal
                int n = round == 0 ? Math.min(2_000, events) : events;
                tables.clear();
                seed(tables, n);
                long start = System.nanoTime();
                long sent = 0;
                while (true) {
                    var result = tables.inTransaction(s -> s.relayDue(batch,
                            due -> OutboxRelay.publish(connection, due)));
                    assertThat(result.failed()).isFalse();
                    if (result.sent() == 0) {
                        break;
                    }
                    sent += result.sent();
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                assertThat(sent).isEqualTo(n);
                if (round == 1) {
                    System.out.printf("outbox relay: %d events in %.2f s = %.0f events/s (batch %d, %s, one broker"
                            + " transaction per batch, Artemis over TCP)%n", n, seconds, n / seconds, batch,
                            OutboxTables.onPostgres() ? "PostgreSQL" : "H2");
                }
            }
        } finally {
            broker.stop();
        }
    }

    private static void seed(OutboxTables tables, int n) throws Exception {
        try (var c = tables.dataSource.getConnection(); var insert = c.prepareStatement("INSERT INTO outbox_events"
                + " (id, event_type, destination, broadcast, payload, created_at, attempts) VALUES (?, 'Bench',"
                + " 'bench', FALSE, ?, ?, 0)")) {
            c.setAutoCommit(false);
            var now = Instant.now();
            for (int i = 0; i < n; i++) {
                var id = UUID.randomUUID();
                insert.setObject(1, id);
                insert.setString(2, UUID.randomUUID().toString());
                insert.setTimestamp(3, Timestamp.from(now.plusNanos(i * 1000L)));
                insert.addBatch();
                if (i % 1000 == 999) {
                    insert.executeBatch();
                }
            }
            insert.executeBatch();
            c.commit();
        }
    }
}
