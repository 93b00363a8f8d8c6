package dev.atrium.marketplace.boundary.installations;

import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.Callers;
import dev.atrium.marketplace.boundary.Requesters;
import dev.atrium.marketplace.boundary.registry.AgentsResource;
import dev.atrium.marketplace.control.registry.InstallationService;

/** Installing a listed agent, and uninstalling it: the caller's own installation of one agent. */
@Path("v1/agents/" + AgentsResource.ID + "/installations")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
public class InstallationsResource {

    @EJB
    InstallationService installations;

    @Inject
    HttpServletRequest request;

    @POST
    @Operation(summary = "Install a listed agent; installing it again answers the existing installation",
            description = "The agent's downloads counts distinct users who ever installed it: the first installation "
                    + "of each user counts, uninstalling does not lower it and installing again does not count again.")
    @APIResponse(responseCode = "201", description = "Installed now",
            content = @Content(schema = @Schema(implementation = InstallationView.class)))
    @APIResponse(responseCode = "200", description = "Installed already: the existing installation",
            content = @Content(schema = @Schema(implementation = InstallationView.class)))
    @APIResponse(responseCode = "404", description = "No agent with this id that the caller may see")
    @APIResponse(responseCode = "409", description = "The agent is not listed (pending, rejected or suspended)")
    public Response install(@PathParam("id") UUID id) {
        Callers.required(request);
        var installed = installations.install(id, Requesters.of(request));
        return Response.status(installed.created() ? Response.Status.CREATED : Response.Status.OK)
                .entity(InstallationView.from(installed.installation())).build();
    }

    @DELETE
    @Operation(summary = "Uninstall the agent")
    @APIResponse(responseCode = "204", description = "Uninstalled")
    @APIResponse(responseCode = "404", description = "The caller has not installed this agent")
    public Response uninstall(@PathParam("id") UUID id) {
        installations.uninstall(id, Callers.required(request).userId());
        return Response.noContent().build();
    }
}
