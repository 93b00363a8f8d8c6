package dev.atrium.it.hooks;

import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/**
 * Arms {@link AfterCommitCrash}: 204, and the next transaction that publishes an event halts the test server right
 * after its commit. Only with {@code atrium.test.crash-after-commit=true} and only for administrators; elsewhere it
 * is 404.
 */
@Path("admin/test/crash-after-commit")
@ApplicationScoped
@RolesAllowed("admin")
public class CrashHookResource {

    @Inject
    AfterCommitCrash crash;

    @POST
    public Response arm() {
        crash.arm();
        return Response.noContent().build();
    }
}
