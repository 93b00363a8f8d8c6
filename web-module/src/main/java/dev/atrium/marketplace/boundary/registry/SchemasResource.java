package dev.atrium.marketplace.boundary.registry;

import jakarta.annotation.security.PermitAll;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.marketplace.control.submission.CardValidation;

/** The JSON Schemas submissions are validated against, as kept in the repository. */
@Path("v1/schemas")
@ApplicationScoped
@Produces({MediaType.APPLICATION_JSON, SchemasResource.SCHEMA_JSON})
@Tag(name = "marketplace")
public class SchemasResource {

    static final String SCHEMA_JSON = "application/schema+json";

    @Inject
    CardValidation cards;

    @GET
    @Path("agent-card")
    @PermitAll
    @Operation(summary = "The agent card's JSON Schema (draft 2020-12)")
    @APIResponse(responseCode = "200", description = "The schema")
    public Response agentCard() {
        return Response.ok(cards.schemaText()).type(MediaType.APPLICATION_JSON_TYPE).build();
    }
}
