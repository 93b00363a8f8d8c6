package dev.atrium.identity.boundary.login;

import jakarta.annotation.security.PermitAll;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.Caller;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.login.CsrfTokens;

/** {@code GET /csrf-token}: a single-use token for the next state-changing request of a cookie session. */
@Path("csrf-token")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "identity")
public class CsrfResource {

    /** {@code {"csrf_token": …}}. */
    public record CsrfResponse(String csrfToken) {
    }

    @Inject
    CsrfTokens tokens;

    @Inject
    HttpServletRequest request;

    @GET
    @PermitAll
    @Operation(summary = "A CSRF token valid 3600 s for one use, bound to the caller's session when it has one")
    public CsrfResponse issue() {
        String session = Callers.current(request).filter(Caller::bySession).map(Caller::sessionId).orElse(null);
        return new CsrfResponse(tokens.issue(session));
    }
}
