package dev.atrium.identity.boundary.login;

import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Validator;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.config.inject.ConfigProperties;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.boundary.MessageResponse;
import dev.atrium.identity.boundary.Origins;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.CsrfExempt;
import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.identity.control.login.LoginService;
import dev.atrium.identity.control.login.LogoutService;
import dev.atrium.identity.control.login.SessionService;
import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.boundary.RequestFields;

/**
 * Password login (token or session mode, by {@code atrium.login.mode}), refresh and logout. One {@code /login} for
 * spec 01 (JSON LoginForm) and spec 02 (form or query parameters); {@code /api/v1/auth/login} is the content
 * API's name for it.
 */
@Path("/")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "identity")
public class LoginResource {

    @EJB
    LoginService logins;

    @EJB
    LogoutService logouts;

    @Inject
    HttpServletRequest request;

    @Inject
    ClientAddress addresses;

    @Inject
    Validator validator;

    @Context
    HttpHeaders headers;

    @Context
    UriInfo uri;

    @Inject
    @ConfigProperties
    IdentityConfig config;

    @POST
    @Path("login")
    @PermitAll
    @CsrfExempt
    @Consumes({MediaType.APPLICATION_JSON, MediaType.APPLICATION_FORM_URLENCODED})
    @Operation(summary = "Log in with a JSON LoginForm, form fields or query parameters email and password. Token "
            + "mode answers tokens; session mode answers {message} and sets the session_id cookie")
    @RequestBody(content = @Content(schema = @Schema(implementation = LoginRequest.class)))
    @APIResponse(responseCode = "200", description = "Logged in",
            content = @Content(schema = @Schema(implementation = TokenResponse.class)))
    public Response login(String body) {
        var fields = RequestFields.of(headers.getMediaType(), body, uri.getQueryParameters());
        var credentials = new LoginRequest(fields.get("email"), fields.get("password"));
        var violations = validator.validate(credentials);
        if (!violations.isEmpty()) {
            throw new ConstraintViolationException(violations);
        }
        return login(credentials.email(), credentials.password());
    }

    @POST
    @Path("api/v1/auth/login")
    @PermitAll
    @CsrfExempt
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Log in (content API)")
    @APIResponse(responseCode = "200", description = "Logged in",
            content = @Content(schema = @Schema(implementation = TokenResponse.class)))
    public Response contentApiLogin(@Valid @NotNull LoginRequest body) {
        return login(body.email(), body.password());
    }

    private Response login(String email, String password) {
        var origin = Origins.of(request, addresses);
        if ("session".equalsIgnoreCase(config.loginMode)) {
            var session = logins.loginSession(email, password, origin,
                    AtriumAuthenticationMechanism.sessionCookie(request));
            return Response.ok(new MessageResponse("Logged in")).cookie(sessionCookie(session.id(),
                    (int) SessionService.LIFETIME.toSeconds())).build();
        }
        return Response.ok(TokenResponse.from(logins.login(email, password, origin))).build();
    }

    @POST
    @Path("refresh")
    @PermitAll
    @CsrfExempt
    @Consumes({MediaType.APPLICATION_JSON, MediaType.APPLICATION_FORM_URLENCODED})
    @Operation(summary = "A new access token, with the user's current role, for a refresh token sent as JSON field, "
            + "form field or query parameter refresh_token")
    @RequestBody(content = @Content(schema = @Schema(implementation = RefreshRequest.class)))
    public AccessTokenResponse refresh(String body) {
        String token = RequestFields.of(headers.getMediaType(), body, uri.getQueryParameters()).get("refresh_token");
        return new AccessTokenResponse(logins.refresh(token, Origins.of(request, addresses)), "bearer");
    }

    @POST
    @Path("logout")
    @PermitAll
    @Consumes({MediaType.APPLICATION_JSON, MediaType.APPLICATION_FORM_URLENCODED})
    @RequestBody(content = @Content(schema = @Schema(implementation = RefreshRequest.class)))
    @Operation(summary = "Log out: blacklists the bearer token until it expires, or ends the cookie's session at "
            + "once; a refresh_token in the body is revoked too (and may be sent alone)")
    @APIResponse(responseCode = "200", description = "Logged out",
            content = @Content(schema = @Schema(implementation = MessageResponse.class)))
    public Response logout(String body) {
        var caller = Callers.current(request).orElse(null);
        String refresh = RequestFields.of(headers.getMediaType(), body, uri.getQueryParameters()).get("refresh_token");
        logouts.logout(caller, refresh, Origins.of(request, addresses));
        var response = Response.ok(new MessageResponse("Logged out"));
        if (caller != null && caller.bySession()) {
            response.cookie(sessionCookie("", 0));
        }
        return response.build();
    }

    public static NewCookie sessionCookie(String value, int maxAge) {
        return sessionCookie(value, maxAge, NewCookie.SameSite.LAX);
    }

    /** The session cookie: HttpOnly, Secure, path /; the operators' console asks for SameSite=Strict. */
    static NewCookie sessionCookie(String value, int maxAge, NewCookie.SameSite sameSite) {
        return new NewCookie.Builder(AtriumAuthenticationMechanism.SESSION_COOKIE).value(value).path("/")
                .maxAge(maxAge).httpOnly(true).secure(true).sameSite(sameSite).build();
    }
}
