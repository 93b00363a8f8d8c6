package dev.atrium.platform.boundary.operations;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.platform.health.HealthParts;
import dev.atrium.platform.health.Operations;

/**
 * {@code GET /admin/operations}: the outbox backlog, the depth of each queue and of the dead-letter queue, whether
 * the object store answers, and the payment processor top-ups go to ({@code payments}, as {@code /health} names it).
 */
@Path("admin/operations")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("admin")
@Tag(name = "operations")
public class OperationsResource {

    /** A queue and its waiting messages (null when the broker could not be asked; capped at 10,000). */
    public record QueueView(String name, Long depth, boolean capped) {
    }

    /** The object store: {@code s3} or {@code file}, and whether it answers now. */
    public record ObjectStoreView(String kind, boolean reachable) {
    }

    /** The outbox backlog, the broker connection, the queues, the object store and the payment processor. */
    public record OperationsView(long outboxPending, boolean brokerConnected, List<QueueView> queues,
                                 ObjectStoreView objectStore, String payments) {

        static OperationsView from(Operations.Snapshot s, String payments) {
            return new OperationsView(s.outboxPending(), s.brokerConnected(),
                    s.queues().stream().map(q -> new QueueView(q.name(), q.depth(), q.capped())).toList(),
                    new ObjectStoreView(s.objectStore(), s.objectStoreReachable()), payments);
        }
    }

    @Inject
    Operations operations;

    /** The payment processor: billing's {@code payments} part. */
    @Inject
    HealthParts parts;

    @GET
    @Operation(summary = "Outbox events not yet relayed, the messages waiting in each queue and the DLQ, the "
            + "object store and the payment processor")
    public OperationsView get() {
        return OperationsView.from(operations.snapshot(), parts.describe("payments"));
    }
}
