package dev.atrium.platform.health;

import java.util.ArrayList;
import java.util.List;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.atrium.platform.events.OutboxStore;
import dev.atrium.platform.messaging.MessagingException;
import dev.atrium.platform.messaging.MessagingRuntime;
import dev.atrium.platform.objects.ObjectStore;

/**
 * What operators watch beyond health: the outbox backlog, how many messages wait in each queue and the DLQ, and the
 * object store (asked here, not in {@code /health}, which is called often and must stay cheap).
 */
@ApplicationScoped
public class Operations {

    /** Depths are counted up to this many messages; more shows as the cap and {@code capped}. */
    public static final int DEPTH_CAP = 10_000;

    /** A queue's waiting messages; {@code depth} is null when the broker could not be asked. */
    public record QueueDepth(String name, Long depth, boolean capped) {
    }

    /** The outbox events not yet relayed, and the queues. */
    public record Snapshot(long outboxPending, boolean brokerConnected, List<QueueDepth> queues,
                           String objectStore, boolean objectStoreReachable) {
    }

    @Inject
    ObjectStore objects;

    @EJB
    OutboxStore outbox;

    @EJB
    MessagingRuntime messaging;

    public Snapshot snapshot() {
        var broker = messaging.broker();
        boolean connected = broker != null && broker.connected();
        var queues = new ArrayList<QueueDepth>();
        for (String name : messaging.queues()) {
            Long depth = null;
            if (connected) {
                try {
                    depth = broker.depth(name, DEPTH_CAP);
                } catch (MessagingException e) {
                    // shown as unknown; the broker's health line says why
                }
            }
            queues.add(new QueueDepth(name, depth, depth != null && depth >= DEPTH_CAP));
        }
        boolean reachable;
        try {
            reachable = objects.reachable();
        } catch (RuntimeException e) {
            reachable = false;
        }
        return new Snapshot(outbox.pending(), connected, queues, objects.kind(), reachable);
    }
}
