package dev.atrium.platform.boundary;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.platform.health.Operations;

/** {@code GET /admin/operations}: the outbox backlog and the depth of each queue and of the dead-letter queue. */
@Path("admin/operations")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("admin")
@Tag(name = "operations")
public class OperationsResource {

    /** A queue and its waiting messages (null when the broker could not be asked; capped at 10,000). */
    public record QueueView(String name, Long depth, boolean capped) {
    }

    /** The outbox backlog, the broker connection and the queues. */
    public record OperationsView(long outboxPending, boolean brokerConnected, List<QueueView> queues) {

        static OperationsView from(Operations.Snapshot s) {
            return new OperationsView(s.outboxPending(), s.brokerConnected(),
                    s.queues().stream().map(q -> new QueueView(q.name(), q.depth(), q.capped())).toList());
        }
    }

    @Inject
    Operations operations;

    @GET
    @Operation(summary = "Outbox events not yet relayed, and the messages waiting in each queue and the DLQ")
    public OperationsView get() {
        return OperationsView.from(operations.snapshot());
    }
}
