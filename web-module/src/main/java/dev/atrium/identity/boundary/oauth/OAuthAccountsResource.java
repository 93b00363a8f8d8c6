package dev.atrium.identity.boundary.oauth;

import java.time.Instant;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.identity.boundary.Origins;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.oauth.OAuthAccountService;
import dev.atrium.identity.entity.OAuthAccount;
import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;

/** The caller's external account bindings. New ones are made with {@code GET /auth/{provider}?link=true}. */
@Path("me/oauth-accounts")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "identity")
public class OAuthAccountsResource {

    /** One binding (spec 01 OAuthAccount, without the user id: it is the caller's). */
    @Schema(description = "An external login bound to the caller")
    public record OAuthAccountView(long id, String provider, String providerUserId, Instant createdAt) {

        static OAuthAccountView from(OAuthAccount a) {
            return new OAuthAccountView(a.id(), a.provider(), a.providerUserId(), a.createdAt());
        }
    }

    @EJB
    OAuthAccountService accounts;

    @Inject
    HttpServletRequest request;

    @Inject
    ClientAddress addresses;

    @Context
    UriInfo uri;

    @GET
    @ListOf(OAuthAccountView.class)
    @Operation(summary = "The caller's external account bindings, with the list conventions; filter provider")
    public Object list() {
        return Envelopes.of(accounts.list(Callers.required(request).userId(), ListRequest.from(uri)), uri,
                OAuthAccountView::from);
    }

    @DELETE
    @Path("{id: \\d+}")
    @Operation(summary = "Remove one of the caller's bindings; 409 when it is the last way to log in (no password, "
            + "no other binding)")
    @APIResponse(responseCode = "204", description = "Removed")
    @APIResponse(responseCode = "409", description = "The last way to log in")
    public void unlink(@PathParam("id") long id) {
        accounts.unlink(Callers.required(request), id, Origins.of(request, addresses));
    }
}
