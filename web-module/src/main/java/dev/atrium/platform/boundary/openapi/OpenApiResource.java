package dev.atrium.platform.boundary.openapi;

import java.util.List;

import jakarta.annotation.security.PermitAll;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The OpenAPI document at {@code /openapi}, in place of Payara's (disabled in the preboot commands): JSON by
 * default, YAML when {@code Accept} prefers it or with {@code format=yaml}. It describes itself too.
 */
@Path("openapi")
@RequestScoped
@PermitAll
@Tag(name = "operations")
public class OpenApiResource {

    static final String YAML = "application/yaml";

    @Inject
    OpenApiDocument document;

    @GET
    @Produces({MediaType.APPLICATION_JSON, YAML, "text/yaml"})
    @Operation(summary = "This OpenAPI 3.0.3 document")
    @APIResponse(responseCode = "200", description = "The document",
            content = {@Content(mediaType = MediaType.APPLICATION_JSON), @Content(mediaType = YAML)})
    public Response get(@QueryParam("format") @Parameter(description = "json or yaml; overrides Accept") String format,
                        @Context HttpHeaders headers) {
        var rendered = document.rendered();
        return yaml(format, headers.getAcceptableMediaTypes())
                ? Response.ok(rendered.yaml(), YAML + ";charset=utf-8").build()
                : Response.ok(rendered.json(), MediaType.APPLICATION_JSON_TYPE.withCharset("utf-8")).build();
    }

    /** The first acceptable type that is YAML or JSON decides; a wildcard counts as JSON. */
    static boolean yaml(String format, List<MediaType> acceptable) {
        if (format != null && !format.isBlank()) {
            return format.trim().equalsIgnoreCase("yaml");
        }
        for (MediaType type : acceptable) {
            if (type.getSubtype().endsWith("yaml")) {
                return true;
            }
            if (type.isCompatible(MediaType.APPLICATION_JSON_TYPE)) {
                return false;
            }
        }
        return false;
    }
}
