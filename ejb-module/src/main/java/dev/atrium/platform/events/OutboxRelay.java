package dev.atrium.platform.events;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.platform.ServerResources;
import dev.atrium.platform.messaging.BrokerConnection;
import dev.atrium.platform.messaging.MessagingException;
import dev.atrium.platform.messaging.MessagingRuntime;

/**
 * Moves events from the outbox to the broker, on one thread per instance: it publishes due rows in batches, each in one
 * broker transaction (see {@link OutboxStore#relayDue}), then waits for a commit's signal or
 * {@code atrium.outbox.poll-millis}. While the broker is unreachable or a publish fails, it backs off (0.5 s, doubling,
 * at most {@code atrium.outbox.max-backoff-seconds}) and the rows wait in the table; nothing is lost and nothing needs
 * a sweep. Sent rows are deleted after {@code atrium.outbox.retention-seconds}.
 */
@Startup
@Singleton
@DependsOn("MessagingRuntime")
@TransactionManagement(TransactionManagementType.BEAN)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class.getName());
    private static final long FIRST_BACKOFF_MILLIS = 500;
    private static final long PRUNE_EVERY_MILLIS = 60_000;

    @Inject
    MessagingRuntime messaging;

    @Inject
    OutboxStore store;

    @Inject
    RelaySignal signal;

    @Inject
    AfterCommitCrash crash;

    @Inject
    Clock clock;

    @Resource(lookup = ServerResources.WORKERS)
    ManagedThreadFactory threads;

    @Inject
    @ConfigProperty(name = "atrium.outbox.batch-size", defaultValue = "200")
    int batchSize;

    @Inject
    @ConfigProperty(name = "atrium.outbox.poll-millis", defaultValue = "500")
    long pollMillis;

    @Inject
    @ConfigProperty(name = "atrium.outbox.max-backoff-seconds", defaultValue = "30")
    long maxBackoffSeconds;

    @Inject
    @ConfigProperty(name = "atrium.outbox.retention-seconds", defaultValue = "86400")
    long retentionSeconds;

    private volatile boolean running;
    private Thread thread;

    @PostConstruct
    void start() {
        if (batchSize < 1 || pollMillis < 1 || maxBackoffSeconds < 1 || retentionSeconds < 0) {
            throw new IllegalArgumentException("atrium.outbox.batch-size, poll-millis and max-backoff-seconds must be"
                    + " positive, retention-seconds not negative");
        }
        running = true;
        thread = threads.newThread(this::loop);
        thread.setName("atrium-outbox-relay");
        thread.start();
        LOG.info(() -> "Outbox relay started: batches of " + batchSize + ", polling every " + pollMillis + " ms");
    }

    @PreDestroy
    void stop() {
        running = false;
        signal.wake();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        long backoff = 0;
        long lastPrune = 0;
        boolean reported = false;
        while (running) {
            try {
                var broker = messaging.broker();
                OutboxStore.Round round;
                if (crash.holdsRelay()) {
                    round = new OutboxStore.Round(0, false);
                } else if (!broker.connected()) {
                    round = new OutboxStore.Round(0, true);
                } else {
                    round = store.relayDue(batchSize, events -> publish(broker, events));
                }
                if (System.currentTimeMillis() - lastPrune > PRUNE_EVERY_MILLIS) {
                    lastPrune = System.currentTimeMillis();
                    prune();
                }
                if (round.failed()) {
                    if (!reported) {
                        LOG.warning("The broker does not take events; they wait in the outbox and are retried");
                        reported = true;
                    }
                    backoff = backoff == 0 ? FIRST_BACKOFF_MILLIS : Math.min(backoff * 2, maxBackoffSeconds * 1000);
                    pause(backoff);
                    continue;
                }
                if (reported) {
                    LOG.info("The broker takes events again");
                    reported = false;
                }
                backoff = 0;
                if (round.sent() < batchSize) {
                    signal.await(pollMillis);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // the database is away, most likely: the events are safe in it, wait and try again
                LOG.log(reported ? Level.FINE : Level.WARNING, "The outbox relay failed; retrying", e);
                reported = true;
                backoff = backoff == 0 ? FIRST_BACKOFF_MILLIS : Math.min(backoff * 2, maxBackoffSeconds * 1000);
                try {
                    pause(backoff);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    // commits keep signalling while the broker is away; a backoff is not cut short by them, only by stop()
    private void pause(long millis) throws InterruptedException {
        long end = System.currentTimeMillis() + millis;
        for (long left = millis; running && left > 0; left = end - System.currentTimeMillis()) {
            Thread.sleep(Math.min(left, 200));
        }
    }

    /**
     * Sends the batch in one broker transaction; if the broker refuses it while still connected, sends the events
     * one by one. The broker rolls back a whole transaction that holds a duplicate (an event it took before the relay
     * could record it as sent), whereas a single duplicate is simply dropped.
     */
    static void publish(BrokerConnection broker, List<OutboxEvent> events) {
        try {
            broker.sendAll(events.stream().map(e -> new BrokerConnection.Outgoing(e.destination(), e.broadcast(),
                    e.payload(), e.id().toString())).toList());
        } catch (MessagingException e) {
            if (!broker.connected()) {
                throw e;
            }
            LOG.fine(() -> "The broker refused a batch of " + events.size() + " events; sending them one by one");
            for (var event : events) {
                if (event.broadcast()) {
                    broker.publish(event.destination(), event.payload(), event.id().toString());
                } else {
                    broker.send(event.destination(), event.payload(), event.id().toString());
                }
            }
        }
    }

    private void prune() {
        int pruned = store.prune(clock.instant().minus(Duration.ofSeconds(retentionSeconds)));
        if (pruned > 0) {
            LOG.fine(() -> "Pruned " + pruned + " sent outbox events");
        }
    }
}
