package dev.atrium.platform.boundary;

import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.platform.events.AfterCommitCrash;

/**
 * Arms the crash test hook: the next transaction that publishes an event halts this instance right after its
 * commit, before the outbox relay publishes the event. Only with {@code atrium.test.crash-after-commit=true} (never
 * in production) and only for administrators; elsewhere it is 404.
 */
@Path("admin/test/crash-after-commit")
@ApplicationScoped
@RolesAllowed("admin")
@Tag(name = "operations")
public class CrashHookResource {

    @Inject
    AfterCommitCrash crash;

    @POST
    @Operation(summary = "Halt after the next event's commit (test deployments only)")
    @APIResponse(responseCode = "204", description = "Armed: the next transaction that publishes an event halts")
    @APIResponse(responseCode = "404", description = "Not a test deployment")
    public Response arm() {
        crash.arm();
        return Response.noContent().build();
    }
}
