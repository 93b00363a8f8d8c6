package dev.atrium.identity.boundary.login;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.login.ApiKeyService;

/** Spec 02's {@code POST /api-keys}: a new API key for the caller, replacing the previous one; limited per hour. */
@Path("api-keys")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "identity")
public class ApiKeysResource {

    /** {@code {"api_key": "sk-…"}}: shown this once; only its hash is kept. */
    public record ApiKeyResponse(String apiKey) {
    }

    @EJB
    ApiKeyService keys;

    @Inject
    HttpServletRequest request;

    @POST
    @Operation(summary = "Issue an API key (sk-…) for the caller; the previous key stops working")
    @APIResponse(responseCode = "201", description = "Issued",
            content = @Content(schema = @Schema(implementation = ApiKeyResponse.class)))
    @APIResponse(responseCode = "429", description = "The user issued the most keys one user may in an hour "
            + "(ATRIUM_API_KEYS_PER_HOUR, 20; code 42900, Retry-After); the current key keeps working")
    public Response issue() {
        return Response.status(Response.Status.CREATED).header("Cache-Control", "no-store")
                .entity(new ApiKeyResponse(keys.issue(Callers.required(request).userId()))).build();
    }
}
