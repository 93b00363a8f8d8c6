package dev.atrium.identity.boundary.account;

import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.boundary.Origins;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.CsrfExempt;
import dev.atrium.identity.control.ProfileUpdate;
import dev.atrium.identity.control.UserService;
import dev.atrium.identity.control.account.RegistrationService;
import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.boundary.json.Patch;

/** Spec 02's users: registration ({@code POST /api/v1/users}) and one's own profile. */
@Path("api/v1/users")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "content")
public class UsersResource {

    @EJB
    RegistrationService registration;

    @EJB
    UserService users;

    @Inject
    HttpServletRequest request;

    @Inject
    ClientAddress addresses;

    @POST
    @PermitAll
    @CsrfExempt
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Register (content API); the account is activated by the e-mailed link")
    @APIResponse(responseCode = "201", description = "Created",
            content = @Content(schema = @Schema(implementation = UserResponse.class)))
    public Response create(@Valid @NotNull RegisterRequest body) {
        var user = registration.register(body.email(), body.username(), body.password(),
                Origins.of(request, addresses));
        return Response.status(Response.Status.CREATED).entity(UserResponse.from(user)).build();
    }

    @GET
    @Path("me")
    @Operation(summary = "The caller's own profile")
    public UserResponse me() {
        return UserResponse.from(users.get(Callers.required(request).userId()));
    }

    @PATCH
    @Path("me")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Change the caller's profile; only the fields sent change, null clears avatar or bio")
    @RequestBody(content = @Content(schema = @Schema(implementation = UserUpdateRequest.class)))
    public UserResponse update(Patch<UserUpdateRequest> patch) {
        var update = new ProfileUpdate(patch.change("username", UserUpdateRequest::username),
                patch.change("avatar", UserUpdateRequest::avatar), patch.change("bio", UserUpdateRequest::bio));
        return UserResponse.from(users.updateProfile(Callers.required(request).userId(), update));
    }
}
