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
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.platform.ServerResources;
import dev.atrium.platform.messaging.Messaging;
import dev.atrium.platform.messaging.MessagingException;
import dev.atrium.platform.messaging.MessagingRuntime;

/**
 * Moves events from the outbox to the broker, on one thread per instance: it publishes due rows in batches, each in one
 * broker transaction (see {@link OutboxStore#relayDue}), then waits for a commit's signal or
 * {@code atrium.outbox.poll-millis}; after rounds that found nothing the wait doubles up to
 * {@code atrium.outbox.idle-poll-millis}, so that an idle server does not query its database twice a second (a commit's
 * signal still wakes it at once; the poll only finds what no signal announced). While the broker is unreachable or a publish fails, it backs off (0.5 s, doubling,
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

    @EJB
    MessagingRuntime messaging;

    @EJB
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
    @ConfigProperty(name = "atrium.outbox.batch-size", defaultValue = "1000")
    int batchSize;

    @Inject
    @ConfigProperty(name = "atrium.outbox.poll-millis", defaultValue = "500")
    long pollMillis;

    @Inject
    @ConfigProperty(name = "atrium.outbox.idle-poll-millis", defaultValue = "5000")
    long idlePollMillis;

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
        long wait = pollMillis;
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
                    round = store.relayDue(batchSize, events -> publish(broker, events, messaging.packSizes()));
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
                    wait = nextWait(wait, round.sent(), pollMillis, idlePollMillis);
                    if (signal.await(wait)) {
                        wait = pollMillis;
                    }
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

    /**
     * The wait before the next round: the poll after a round that sent something, else the previous wait doubled, at
     * most the idle poll (never below the poll).
     */
    static long nextWait(long previous, int sent, long pollMillis, long idlePollMillis) {
        return sent > 0 ? pollMillis : Math.min(previous * 2, Math.max(pollMillis, idlePollMillis));
    }

    // commits keep signalling while the broker is away; a backoff is not cut short by them, only by stop()
    private void pause(long millis) throws InterruptedException {
        long end = System.currentTimeMillis() + millis;
        for (long left = millis; running && left > 0; left = end - System.currentTimeMillis()) {
            Thread.sleep(Math.min(left, 200));
        }
    }

    /** {@link #publish(Messaging, List, java.util.Map)} with every event a message of its own. */
    static void publish(Messaging broker, List<OutboxEvent> events) {
        publish(broker, events, java.util.Map.of());
    }

    /**
     * Sends the batch in one broker transaction; if the broker refuses it while still connected, sends its messages
     * one by one. The broker rolls back a whole transaction that holds a duplicate (a message it took before the relay
     * could record its events as sent), whereas a single duplicate is simply dropped. {@code packs}: queues whose
     * consumer takes batches, with their batch size; their events travel up to that many to a message, one payload a
     * line ({@link #messages}).
     */
    static void publish(Messaging broker, List<OutboxEvent> events, java.util.Map<String, Integer> packs) {
        var messages = messages(events, packs);
        try {
            broker.sendAll(messages);
        } catch (MessagingException e) {
            if (!broker.connected()) {
                throw e;
            }
            LOG.fine(() -> "The broker refused a batch of " + messages.size() + " messages; sending them one by one");
            for (var message : messages) {
                if (message.topic()) {
                    broker.publish(message.destination(), message.body(), message.duplicateId());
                } else {
                    broker.send(message.destination(), message.body(), message.duplicateId());
                }
            }
        }
    }

    /**
     * The messages for the events, in their order per destination. An event is a message of its own, its id the
     * duplicate-detection id, unless its queue is in {@code packs}: then consecutive events of that queue share a
     * message, up to the queue's batch size, their payloads one per line, so that the broker and the consumer handle
     * one message where they would handle hundreds (the billing queue's usage events). A packed message's
     * duplicate-detection id names its first and last event and their number: the same rows relayed again after a
     * crash make the same message, which the broker drops; a different grouping reaches consumers that are idempotent
     * per id. A payload holding a line break is never packed.
     */
    static List<Messaging.Outgoing> messages(List<OutboxEvent> events,
                                                    java.util.Map<String, Integer> packs) {
        var messages = new java.util.ArrayList<Messaging.Outgoing>();
        var packing = new java.util.LinkedHashMap<String, List<OutboxEvent>>();
        for (var event : events) {
            Integer size = event.broadcast() ? null : packs.get(event.destination());
            if (size == null || size < 2 || event.payload().indexOf('\n') >= 0 || event.payload().indexOf('\r') >= 0) {
                if (!event.broadcast() && packing.containsKey(event.destination())) {
                    // the queue's open pack goes first, so its events keep their order
                    messages.add(packed(packing.remove(event.destination())));
                }
                messages.add(new Messaging.Outgoing(event.destination(), event.broadcast(), event.payload(),
                        event.id().toString()));
                continue;
            }
            var pack = packing.computeIfAbsent(event.destination(), d -> new java.util.ArrayList<>());
            pack.add(event);
            if (pack.size() == size) {
                messages.add(packed(packing.remove(event.destination())));
            }
        }
        packing.values().forEach(pack -> messages.add(packed(pack)));
        return messages;
    }

    private static Messaging.Outgoing packed(List<OutboxEvent> pack) {
        var first = pack.get(0);
        if (pack.size() == 1) {
            return new Messaging.Outgoing(first.destination(), false, first.payload(), first.id().toString());
        }
        var body = String.join("\n", pack.stream().map(OutboxEvent::payload).toList());
        return new Messaging.Outgoing(first.destination(), false, body,
                "pack:" + first.id() + ":" + pack.get(pack.size() - 1).id() + ":" + pack.size());
    }

    private void prune() {
        int pruned = store.prune(clock.instant().minus(Duration.ofSeconds(retentionSeconds)));
        if (pruned > 0) {
            LOG.fine(() -> "Pruned " + pruned + " sent outbox events");
        }
    }
}
