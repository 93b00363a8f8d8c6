package dev.atrium.platform.events;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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

import org.eclipse.microprofile.config.inject.ConfigProperties;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

import dev.atrium.platform.CrashPoints;
import dev.atrium.platform.PlatformConfig;
import dev.atrium.platform.ServerResources;
import dev.atrium.platform.messaging.Messaging;
import dev.atrium.platform.messaging.MessagingException;
import dev.atrium.platform.messaging.MessagingRuntime;
import dev.atrium.platform.telemetry.TraceParents;
import dev.atrium.platform.telemetry.Tracing;

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
    /** A producer span links to at most this many other traces (a pack of events from as many calls). */
    static final int MAX_LINKS = 128;

    @EJB
    MessagingRuntime messaging;

    @EJB
    OutboxStore store;

    @Inject
    RelaySignal signal;

    @Inject
    CrashPoints crash;

    @Inject
    Clock clock;

    @Inject
    Tracing tracing;

    @Resource(lookup = ServerResources.WORKERS)
    ManagedThreadFactory threads;

    @Inject
    @ConfigProperties
    PlatformConfig config;

    private volatile boolean running;
    private Thread thread;

    @PostConstruct
    void start() {
        int batchSize = config.outboxBatchSize;
        long pollMillis = config.outboxPollMillis;
        if (batchSize < 1 || pollMillis < 1 || config.outboxMaxBackoffSeconds < 1
                || config.outboxRetentionSeconds < 0) {
            throw new IllegalArgumentException("atrium.outbox.batch-size, poll-millis and max-backoff-seconds must be"
                    + " positive, retention-seconds not negative");
        }
        // resolved here, where the application is known: the relay's thread only uses it
        Tracer tracer = tracing.tracer();
        running = true;
        thread = threads.newThread(() -> loop(tracer));
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

    private void loop(Tracer tracer) {
        int batchSize = config.outboxBatchSize;
        long pollMillis = config.outboxPollMillis;
        long idlePollMillis = config.outboxIdlePollMillis;
        long maxBackoffSeconds = config.outboxMaxBackoffSeconds;
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
                    round = store.relayDue(batchSize, events -> publish(broker, events, messaging.packSizes(), tracer));
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

    /** {@link #publish(Messaging, List, java.util.Map, Tracer)} with every event a message of its own, untraced. */
    static void publish(Messaging broker, List<OutboxEvent> events) {
        publish(broker, events, Map.of(), OpenTelemetry.noop().getTracer(Tracing.SCOPE));
    }

    /**
     * Sends the batch in one broker transaction; if the broker refuses it while still connected, sends its messages
     * one by one. The broker rolls back a whole transaction that holds a duplicate (a message it took before the relay
     * could record its events as sent), whereas a single duplicate is simply dropped. {@code packs}: queues whose
     * consumer takes batches, with their batch size; their events travel up to that many to a message, one payload a
     * line ({@link #messages}). A message whose events were written in a trace is sent in a producer span of that trace
     * ({@link #traced}).
     */
    static void publish(Messaging broker, List<OutboxEvent> events, Map<String, Integer> packs,
                        Tracer tracer) {
        var spans = new ArrayList<Span>();
        var messages = groups(events, packs).stream().map(group -> traced(group, tracer, spans)).toList();
        try {
            send(broker, messages);
        } catch (RuntimeException e) {
            spans.forEach(span -> span.setStatus(StatusCode.ERROR, "not taken by the broker"));
            throw e;
        } finally {
            spans.forEach(Span::end);
        }
    }

    private static void send(Messaging broker, List<Messaging.Outgoing> messages) {
        try {
            broker.sendAll(messages);
        } catch (MessagingException e) {
            if (!broker.connected()) {
                throw e;
            }
            LOG.fine(() -> "The broker refused a batch of " + messages.size() + " messages; sending them one by one");
            messages.forEach(broker::sendAlone);
        }
    }

    /**
     * The message of a group of events, carrying the trace its events were written in: a producer span
     * ({@code <destination> publish}) whose parent is the first traced event's context and which links to the other
     * events' contexts (a pack of events from many calls), its own context in the message. Events written outside a
     * trace make an untraced message and no span, so that nothing is recorded while tracing is off.
     */
    static Messaging.Outgoing traced(List<OutboxEvent> group, Tracer tracer, List<Span> spans) {
        var message = message(group);
        var parents = group.stream().map(OutboxEvent::traceParent).filter(Objects::nonNull).toList();
        if (parents.isEmpty()) {
            return message;
        }
        var builder = tracer.spanBuilder(message.destination() + " publish")
                .setSpanKind(SpanKind.PRODUCER)
                .setParent(TraceParents.parent(parents.get(0)))
                .setAttribute("messaging.system", "activemq")
                .setAttribute("messaging.destination.name", message.destination())
                .setAttribute("messaging.batch.message_count", group.size());
        for (var other : parents.subList(1, Math.min(parents.size(), MAX_LINKS))) {
            var context = TraceParents.spanContext(other);
            if (context.isValid()) {
                builder.addLink(context);
            }
        }
        var span = builder.startSpan();
        spans.add(span);
        return message.traced(Context.root().with(span));
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
                                                    Map<String, Integer> packs) {
        return groups(events, packs).stream().map(OutboxRelay::message).toList();
    }

    /** The events of each message of {@link #messages}, in the same order. */
    static List<List<OutboxEvent>> groups(List<OutboxEvent> events, Map<String, Integer> packs) {
        var groups = new ArrayList<List<OutboxEvent>>();
        var packing = new LinkedHashMap<String, List<OutboxEvent>>();
        for (var event : events) {
            Integer size = event.broadcast() ? null : packs.get(event.destination());
            if (size == null || size < 2 || event.payload().indexOf('\n') >= 0 || event.payload().indexOf('\r') >= 0) {
                if (!event.broadcast() && packing.containsKey(event.destination())) {
                    // the queue's open pack goes first, so its events keep their order
                    groups.add(packing.remove(event.destination()));
                }
                groups.add(List.of(event));
                continue;
            }
            var pack = packing.computeIfAbsent(event.destination(), d -> new ArrayList<>());
            pack.add(event);
            if (pack.size() == size) {
                groups.add(packing.remove(event.destination()));
            }
        }
        groups.addAll(packing.values());
        return groups;
    }

    private static Messaging.Outgoing message(List<OutboxEvent> pack) {
        var first = pack.get(0);
        if (pack.size() == 1) {
            return new Messaging.Outgoing(first.destination(), first.broadcast(), first.payload(),
                    first.id().toString());
        }
        var body = String.join("\n", pack.stream().map(OutboxEvent::payload).toList());
        return new Messaging.Outgoing(first.destination(), false, body,
                "pack:" + first.id() + ":" + pack.get(pack.size() - 1).id() + ":" + pack.size());
    }

    private void prune() {
        int pruned = store.prune(clock.instant().minus(Duration.ofSeconds(config.outboxRetentionSeconds)));
        if (pruned > 0) {
            LOG.fine(() -> "Pruned " + pruned + " sent outbox events");
        }
    }
}
