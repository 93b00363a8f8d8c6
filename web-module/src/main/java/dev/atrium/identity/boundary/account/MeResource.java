package dev.atrium.identity.boundary.account;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.Callers;

/** {@code GET /me/permissions}: what the caller may do, for clients to show or hide features. */
@Path("me/permissions")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "identity")
public class MeResource {

    /** The caller in short. */
    public record UserRef(long id, String username) {
    }

    /** Spec 01: {@code {user: {id, username}, roles: [name], permissions: [code]}}. */
    public record PermissionsResponse(UserRef user, List<String> roles, List<String> permissions) {
    }

    @Inject
    HttpServletRequest request;

    @GET
    @Operation(summary = "The caller's roles and the permissions they grant")
    public PermissionsResponse permissions() {
        var caller = Callers.required(request);
        return new PermissionsResponse(new UserRef(caller.userId(), caller.username()),
                caller.groups().stream().sorted().toList(), caller.permissions().stream().sorted().toList());
    }
}
