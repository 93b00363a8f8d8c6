package dev.atrium.marketplace.boundary.runtime;

import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
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
import dev.atrium.marketplace.boundary.registry.AgentsResource;
import dev.atrium.marketplace.control.registry.AgentSecretService;

/**
 * An agent's secrets, for its author alone: write-only values that reach only this agent's runs, as the environment
 * variables its running version declares in {@code permissions.allowed_env_vars}.
 */
@Path("v1/agents/" + AgentsResource.ID + "/secrets")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
public class AgentSecretsResource {

    @EJB
    AgentSecretService secrets;

    @Inject
    HttpServletRequest request;

    @GET
    @Operation(summary = "The agent's secrets: names, whether the current version declares them, and when they were "
            + "set; never the values (author only)")
    @APIResponse(responseCode = "200", description = "The secrets, by name",
            content = @Content(schema = @Schema(implementation = SecretsView.class)))
    @APIResponse(responseCode = "404", description = "No agent of yours with this id")
    public SecretsView list(@PathParam("id") UUID id) {
        return SecretsView.from(secrets.list(id, Callers.required(request).userId()));
    }

    @PUT
    @Path("{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set or replace a secret of your agent",
            description = "The name follows the rule of allowed_env_vars (letters, digits, underscores, at most 128, "
                    + "not starting with a digit; not one the platform sets itself); the value is 1 to 4096 bytes "
                    + "of UTF-8 without NUL. At most 20 secrets per agent. The value is sealed at once (AES-GCM "
                    + "under a key derived from the master secret) and can never be read back; runs receive it only "
                    + "while their version declares the name.")
    @APIResponse(responseCode = "201", description = "Set",
            content = @Content(schema = @Schema(implementation = SecretView.class)))
    @APIResponse(responseCode = "200", description = "Replaced",
            content = @Content(schema = @Schema(implementation = SecretView.class)))
    @APIResponse(responseCode = "404", description = "No agent of yours with this id")
    @APIResponse(responseCode = "413", description = "The value is over 4096 bytes (code 41300)")
    @APIResponse(responseCode = "422", description = "An invalid or reserved name, an empty or invalid value, or "
            + "a 21st secret (code 40001)")
    public Response set(@PathParam("id") UUID id, @PathParam("name") String name,
                        @Valid @NotNull SecretRequest body) {
        var stored = secrets.set(id, Callers.required(request).userId(), name, body.value());
        return Response.status(stored.created() ? Response.Status.CREATED : Response.Status.OK)
                .entity(SecretView.from(stored.secret(), stored.declared())).build();
    }

    @DELETE
    @Path("{name}")
    @Operation(summary = "Delete a secret of your agent; its runs no longer receive it")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "404", description = "No agent of yours with this id, or no secret by this name")
    public Response delete(@PathParam("id") UUID id, @PathParam("name") String name) {
        secrets.delete(id, Callers.required(request).userId(), name);
        return Response.noContent().build();
    }
}
