package dev.atrium.identity.boundary.admin;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.boundary.Origins;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.identity.control.account.AccessAdminService;
import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;

import java.util.List;

/** Administering users: listing, deletion, and their roles. */
@Path("admin/users")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "identity-admin")
public class AdminUsersResource {

    /** A user's roles after a change. */
    public record UserRoles(long userId, String role, List<String> roles) {
    }

    @EJB
    AccessAdminService admin;

    @Inject
    HttpServletRequest request;

    @Inject
    ClientAddress addresses;

    @Context
    UriInfo uri;

    @GET
    @RequiresPermission("user:read")
    @ListOf(AdminUserView.class)
    @Operation(summary = "Users, with the list conventions; filters email, role, is_active; search in username and "
            + "e-mail")
    public Object list() {
        return Envelopes.of(admin.users(ListRequest.from(uri)), uri, AdminUserView::from);
    }

    @GET
    @Path("{id: \\d+}")
    @RequiresPermission("user:read")
    @Operation(summary = "One user")
    public AdminUserView get(@PathParam("id") long id) {
        return AdminUserView.from(admin.user(id));
    }

    /** What an administrator may change of a user: whether it is active, and why (kept with a deactivation). */
    public record UserStatusRequest(@NotNull Boolean isActive,
                                    @Size(max = 200) String reason) {
    }

    @PATCH
    @Path("{id: \\d+}")
    @RequiresPermission("user:update")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Deactivate (ending all the user's sessions and tokens) or reactivate a user")
    public AdminUserView update(@PathParam("id") long id, @Valid @NotNull UserStatusRequest body) {
        return AdminUserView.from(admin.setActive(id, body.isActive(), body.reason(), Callers.required(request),
                Origins.of(request, addresses)));
    }

    @DELETE
    @Path("{id: \\d+}/sessions")
    @RequiresPermission("user:update")
    @Operation(summary = "End all the user's sessions, access and refresh tokens (not one's own: POST /logout)")
    @APIResponse(responseCode = "204", description = "Ended")
    public void endSessions(@PathParam("id") long id) {
        admin.endSessions(id, Callers.required(request), Origins.of(request, addresses));
    }

    @DELETE
    @Path("{id: \\d+}")
    @RequiresPermission("user:delete")
    @Operation(summary = "Delete a user (not oneself); their sessions and tokens stop working")
    @APIResponse(responseCode = "204", description = "Deleted")
    public void delete(@PathParam("id") long id) {
        admin.delete(id, Callers.required(request), Origins.of(request, addresses));
    }

    @POST
    @Path("{id: \\d+}/roles")
    @RequiresPermission("role:assign")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Grant a role: 201 when granted, 200 when the user already had it")
    @APIResponse(responseCode = "201", description = "Granted",
            content = @Content(schema = @Schema(implementation = UserRoles.class)))
    @APIResponse(responseCode = "200", description = "Already held",
            content = @Content(schema = @Schema(implementation = UserRoles.class)))
    public Response grant(@PathParam("id") long id, @Valid @NotNull RoleGrantRequest body) {
        boolean granted = admin.grant(id, body.role(), Callers.required(request), Origins.of(request, addresses));
        var user = admin.user(id);
        return Response.status(granted ? 201 : 200).entity(new UserRoles(id, user.role(), user.roleNames())).build();
    }

    @DELETE
    @Path("{id: \\d+}/roles/{role}")
    @RequiresPermission("role:assign")
    @Operation(summary = "Revoke a role; a user keeps at least one")
    @APIResponse(responseCode = "204", description = "Revoked")
    public void revoke(@PathParam("id") long id, @PathParam("role") String role) {
        admin.revoke(id, role, Callers.required(request), Origins.of(request, addresses));
    }
}
