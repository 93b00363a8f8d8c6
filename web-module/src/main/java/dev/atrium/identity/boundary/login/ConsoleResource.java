package dev.atrium.identity.boundary.login;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;

import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.boundary.MessageResponse;
import dev.atrium.identity.boundary.Origins;
import dev.atrium.identity.control.CsrfExempt;
import dev.atrium.identity.control.login.LoginService;
import dev.atrium.identity.control.login.SessionService;
import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.boundary.HtmlPages;
import dev.atrium.platform.error.BusinessException;

/**
 * The operators' console at {@code /console}: three static files (a page, one script module, one style sheet) that
 * work over the REST API with a cookie session, and the console's sign-in. The script builds every element with
 * DOM calls and text nodes, so the policy allows scripts and styles from this origin only, no inline code at all.
 */
@Path("console")
@ApplicationScoped
@Tag(name = "operations")
public class ConsoleResource {

    /** Holding any of these opens the console; each screen then asks the API, which checks its own permission. */
    static final Set<String> CONSOLE_PERMISSIONS =
            Set.of("admin", "user:read", "agent:review", "agent:trust", "audit:read", "alert:read", "key:rotate");

    private static final Map<String, String> ASSETS = Map.of(
            "console.js", "text/javascript; charset=utf-8",
            "console.css", "text/css; charset=utf-8");

    @EJB
    LoginService logins;

    @Inject
    HttpServletRequest request;

    @Inject
    ClientAddress addresses;

    @GET
    @PermitAll
    @Produces(MediaType.TEXT_HTML)
    @Operation(summary = "The operators' console (a page that signs in and works over this API)")
    @APIResponse(responseCode = "200", description = "The console's page", content = @Content(mediaType = "text/html"))
    public Response page() {
        return asset("index.html", "text/html; charset=utf-8");
    }

    @GET
    @Path("{asset: console\\.(js|css)}")
    @PermitAll
    @Operation(summary = "The console's script module and style sheet")
    @APIResponse(responseCode = "200", description = "The file")
    @APIResponse(responseCode = "404", description = "No such console file")
    public Response file(@PathParam("asset") String name) {
        return asset(name, ASSETS.get(name));
    }

    @POST
    @Path("session")
    @PermitAll
    @CsrfExempt
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Sign in to the console: a session cookie (SameSite=Strict) whatever the login mode, for "
            + "users with admin, user:read, agent:review, agent:trust, audit:read, alert:read or key:rotate; 403 "
            + "for anyone else")
    @APIResponse(responseCode = "200", description = "Signed in: the session_id cookie",
            content = @Content(schema = @Schema(implementation = MessageResponse.class)))
    @APIResponse(responseCode = "401", description = "Wrong e-mail or password")
    @APIResponse(responseCode = "403", description = "No console permission, or the account is deactivated")
    public Response signIn(@Valid @NotNull LoginRequest body) {
        var session = logins.loginConsole(body.email(), body.password(), Origins.of(request, addresses),
                AtriumAuthenticationMechanism.sessionCookie(request), CONSOLE_PERMISSIONS);
        return Response.ok(new MessageResponse("Signed in")).cookie(LoginResource.sessionCookie(session.id(),
                (int) SessionService.LIFETIME.toSeconds(), NewCookie.SameSite.STRICT))
                .header("Cache-Control", "no-store").build();
    }

    private Response asset(String name, String type) {
        InputStream in = ConsoleResource.class.getResourceAsStream("/console/" + name);
        if (in == null) {
            throw BusinessException.notFound("Console file");
        }
        try (in) {
            return HtmlPages.file(in.readAllBytes(), type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
