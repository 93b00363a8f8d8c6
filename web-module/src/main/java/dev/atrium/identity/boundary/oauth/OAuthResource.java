package dev.atrium.identity.boundary.oauth;

import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.boundary.Origins;
import dev.atrium.identity.boundary.login.TokenResponse;
import dev.atrium.identity.control.Caller;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.oauth.ExternalLoginService;
import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.error.BusinessException;

/**
 * External login (spec 01): {@code GET /auth/{provider}} sends the browser to the provider, and the provider sends
 * it back to {@code GET /auth/{provider}/callback}, which answers Atrium's tokens. The redirect is a 303 (See Other):
 * spec 01 keeps 301 and 302 out of the API.
 */
@Path("auth")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "identity")
public class OAuthResource {

    @EJB
    ExternalLoginService logins;

    @Inject
    HttpServletRequest request;

    @Inject
    ClientAddress addresses;

    @GET
    @Path("{provider}")
    @PermitAll
    @Operation(summary = "Start an external login: 303 to the provider's authorization page with state, PKCE "
            + "(S256) and nonce. With link=true and a bearer token, the callback binds the external account to the "
            + "caller instead")
    @Parameter(name = "link", description = "true to bind this provider to the logged-in caller")
    @Parameter(name = "redirect_uri", description = "optional; when sent it must equal the configured redirect URI")
    @APIResponse(responseCode = "303", description = "Redirect to the provider (Location)")
    public Response authorize(@PathParam("provider") String provider, @QueryParam("link") String link,
                              @QueryParam("redirect_uri") String redirectUri) {
        Caller linking = null;
        if (link != null && !"false".equalsIgnoreCase(link)) {
            if (!"true".equalsIgnoreCase(link)) {
                throw BusinessException.validation("link: true or false");
            }
            linking = Callers.required(request);
        }
        return Response.status(Response.Status.SEE_OTHER)
                .location(logins.authorizationUrl(provider, redirectUri, linking))
                .header(HttpHeaders.CACHE_CONTROL, "no-store").build();
    }

    @GET
    @Path("{provider}/callback")
    @PermitAll
    @Operation(summary = "The provider's redirect back: checks the state, exchanges the code with the PKCE "
            + "verifier, validates the ID token, finds or creates the user and the binding, and answers tokens")
    @Parameter(name = "code", description = "authorization code from the provider")
    @Parameter(name = "state", description = "the state sent with the authorization request; single use")
    @Parameter(name = "error", description = "set by the provider when it did not authorize (answered 400)")
    @APIResponse(responseCode = "200", description = "Logged in",
            content = @Content(schema = @Schema(implementation = TokenResponse.class)))
    @APIResponse(responseCode = "409", description = "The e-mail belongs to a local account and the provider does "
            + "not confirm it verified, or the external account is bound to another user")
    @APIResponse(responseCode = "502", description = "The provider is unavailable")
    public Response callback(@PathParam("provider") String provider, @QueryParam("code") String code,
                             @QueryParam("state") String state, @QueryParam("error") String error) {
        var tokens = logins.callback(provider, code, state, error, Origins.of(request, addresses));
        return Response.ok(TokenResponse.from(tokens)).header(HttpHeaders.CACHE_CONTROL, "no-store")
                .header("Pragma", "no-cache").build();
    }
}
