package dev.atrium.identity.boundary;

import java.net.URI;
import java.util.List;

import jakarta.annotation.security.PermitAll;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.SsoService;
import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.error.BusinessException;

/** Single sign-on: RS256 tokens for subsystems, and the CAS-style ticket flow. */
@Path("sso")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "sso")
public class SsoResource {

    /** {@code {token, redirect}}: the RS256 token, and the redirect URL carrying it as {@code token}. */
    public record SsoLoginResponse(String token, String redirect) {
    }

    /** The user behind a ticket: id, username, e-mail and roles. */
    public record TicketUserResponse(long id, String username, String email, List<String> roles) {
    }

    @Inject
    SsoService sso;

    @Inject
    HttpServletRequest request;

    @Inject
    ClientAddress addresses;

    @POST
    @Path("login")
    @PermitAll
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Log in for single sign-on: an RS256 token verifiable with /.well-known/jwks.json; "
            + "redirect_url must be under an allowed prefix")
    public SsoLoginResponse login(@Valid @NotNull SsoLoginRequest body) {
        var result = sso.login(body.email(), body.password(), body.redirectUrl(), Origins.of(request, addresses));
        return new SsoLoginResponse(result.token(), result.redirect());
    }

    @GET
    @Path("login")
    @PermitAll
    @Operation(summary = "Ticket flow: with a valid session or token, 303 to the service with ticket=ST-…; "
            + "without, 401 saying how to log in")
    @APIResponse(responseCode = "303", description = "To the service, carrying a one-time ticket")
    public Response ticket(@QueryParam("service") String service) {
        var caller = Callers.current(request).orElseThrow(() -> new BusinessException(
                dev.atrium.platform.error.Problem.UNAUTHENTICATED, "Log in first",
                "Log in with POST /sso/login or POST /login (session mode), then open GET /sso/login?service=… "
                        + "again with the session cookie or bearer token"));
        return Response.seeOther(URI.create(sso.ticket(caller, service))).build();
    }

    @GET
    @Path("validate")
    @PermitAll
    @Operation(summary = "A service's backend exchanges a ticket, once and within 5 minutes, for its user")
    public TicketUserResponse validate(@QueryParam("ticket") String ticket, @QueryParam("service") String service) {
        var user = sso.validate(ticket, service, Origins.of(request, addresses));
        return new TicketUserResponse(user.id(), user.username(), user.email(), user.roles());
    }
}
