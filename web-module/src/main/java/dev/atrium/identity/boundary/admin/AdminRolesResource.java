package dev.atrium.identity.boundary.admin;

import java.util.List;
import java.util.Map;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.identity.control.account.AccessAdminService;
import dev.atrium.platform.boundary.ListEnvelope;

/** The roles and their permissions. */
@Path("admin/roles")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "identity-admin")
public class AdminRolesResource {

    /** A role and the permission codes it grants. */
    public record RoleView(long id, String name, List<String> permissions) {
    }

    @EJB
    AccessAdminService admin;

    @GET
    @RequiresPermission("role:read")
    @Operation(summary = "All roles with their permissions")
    public ListEnvelope<RoleView> list() {
        var roles = admin.roles().stream().map(r -> new RoleView(r.id(), r.name(), r.permissionCodes())).toList();
        return new ListEnvelope<>(roles, roles.size(), 1, Math.max(1, roles.size()), Map.of("self", "/admin/roles"));
    }
}
