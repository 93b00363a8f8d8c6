package dev.atrium.identity.boundary.login;

import java.net.URI;
import java.util.List;
import java.util.Locale;

import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.boundary.Origins;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.CsrfExempt;
import dev.atrium.identity.control.Hashes;
import dev.atrium.identity.control.login.CsrfTokens;
import dev.atrium.identity.control.login.SsoService;
import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.boundary.HtmlPages;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/** Single sign-on: RS256 tokens for subsystems, and the CAS-style ticket flow. */
@Path("sso")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "sso")
public class SsoResource {

    /** The login form's cookie, to which the form's CSRF token is bound. */
    static final String FORM_COOKIE = "sso_form";
    private static final String FORM_BINDING = "sso-form:";

    /** {@code {token, redirect}}: the RS256 token, and the redirect URL carrying it as {@code token}. */
    public record SsoLoginResponse(String token, String redirect) {
    }

    /** The user behind a ticket: id, username, e-mail and roles. */
    public record TicketUserResponse(long id, String username, String email, List<String> roles) {
    }

    @EJB
    SsoService sso;

    @Inject
    HttpServletRequest request;

    @Inject
    ClientAddress addresses;

    @Inject
    CsrfTokens csrf;

    @POST
    @Path("login")
    @PermitAll
    @CsrfExempt
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
    @Produces({MediaType.APPLICATION_JSON, MediaType.TEXT_HTML})
    @Operation(summary = "Ticket flow: with a valid session or token, 303 to the service with ticket=ST-…; "
            + "without, a browser (Accept: text/html) gets the login form, other clients 401 saying how to log in")
    @APIResponse(responseCode = "303", description = "To the service, carrying a one-time ticket")
    @APIResponse(responseCode = "200", description = "The login form, for a browser without a session",
            content = @Content(mediaType = MediaType.TEXT_HTML))
    public Response ticket(@QueryParam("service") String service, @HeaderParam("Accept") String accept) {
        var caller = Callers.current(request);
        if (caller.isPresent()) {
            return Response.seeOther(URI.create(sso.ticket(caller.get(), service))).build();
        }
        if (accept == null || !accept.toLowerCase(Locale.ROOT).contains(MediaType.TEXT_HTML)) {
            throw new BusinessException(Problem.UNAUTHENTICATED, "Log in first",
                    "Log in with POST /sso/login or POST /login (session mode), then open GET /sso/login?service=… "
                            + "again with the session cookie or bearer token; a browser gets a login form");
        }
        try {
            sso.checkService(service);
        } catch (BusinessException refused) {
            return unknownServicePage();
        }
        return loginForm(200, service, null);
    }

    /**
     * The login form's submission. It must carry the CSRF token of the form, which is bound to the form's cookie:
     * a page of another site can neither read the token nor (SameSite=Strict) send the cookie. Then the usual login
     * checks, and a 303 to the service with a ticket.
     */
    @POST
    @Path("login")
    @PermitAll
    @CsrfExempt
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    @Operation(summary = "The ticket flow's login form: 303 to the service with ticket=ST-…, or the form again")
    @APIResponse(responseCode = "303", description = "To the service, carrying a one-time ticket")
    public Response loginByForm(@FormParam("email") String email, @FormParam("password") String password,
                                @FormParam("service") String service, @FormParam("csrf_token") String csrfToken,
                                @CookieParam(FORM_COOKIE) String binding) {
        try {
            sso.checkService(service);
        } catch (BusinessException refused) {
            return unknownServicePage();
        }
        if (!wellFormedBinding(binding) || !csrf.consume(csrfToken, FORM_BINDING + binding)) {
            return loginForm(403, service, "The form expired or did not come from this page: log in again.");
        }
        if (email == null || email.isBlank() || email.length() > 320 || password == null || password.isEmpty()
                || password.length() > 256) {
            return loginForm(400, service, "Enter your e-mail address and password.");
        }
        try {
            String target = sso.ticketAfterLogin(email, password, service, Origins.of(request, addresses));
            return Response.seeOther(URI.create(target)).cookie(formCookie("", 0)).build();
        } catch (BusinessException refused) {
            var page = loginFormBuilder(refused.problem().status(), service, refused.getMessage());
            refused.headers().forEach(page::header);
            return page.build();
        }
    }

    private static boolean wellFormedBinding(String binding) {
        return binding != null && binding.matches("[A-Za-z0-9_-]{43}");
    }

    /** The form with a fresh CSRF token bound to a fresh cookie of this browser. */
    private Response loginForm(int status, String service, String error) {
        return loginFormBuilder(status, service, error).build();
    }

    private Response.ResponseBuilder loginFormBuilder(int status, String service, String error) {
        String binding = Hashes.randomToken(32);
        String token = csrf.issue(FORM_BINDING + binding);
        String message = error == null ? "" : "<p class=\"error\" role=\"alert\">" + HtmlPages.escape(error)
                + "</p>\n";
        return HtmlPages.builder(status, "Log in", message + """
                <form method="post" action="login">
                <input type="hidden" name="service" value="%s">
                <input type="hidden" name="csrf_token" value="%s">
                <label for="email">E-mail address</label>
                <input id="email" name="email" type="email" required maxlength="320" autocomplete="username">
                <label for="password">Password</label>
                <input id="password" name="password" type="password" required maxlength="256"
                 autocomplete="current-password">
                <button type="submit">Log in</button>
                </form>
                """.formatted(HtmlPages.escape(service), token))
                .cookie(formCookie(binding, (int) CsrfTokens.LIFETIME.toSeconds()));
    }

    private NewCookie formCookie(String value, int maxAge) {
        return new NewCookie.Builder(FORM_COOKIE).value(value).path("/sso").maxAge(maxAge).httpOnly(true)
                .secure(addresses.overHttps(request)).sameSite(NewCookie.SameSite.STRICT).build();
    }

    private static Response unknownServicePage() {
        return HtmlPages.page(400, "Unknown service",
                "<p>The application that sent you here is not allowed to use this login.</p>");
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
