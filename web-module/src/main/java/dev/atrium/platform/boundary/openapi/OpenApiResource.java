package dev.atrium.platform.boundary.openapi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import jakarta.annotation.security.PermitAll;
import jakarta.enterprise.context.ApplicationScoped;
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
 * default, YAML when {@code Accept} prefers it or with {@code format=yaml}. Both files are written at build time by
 * SmallRye OpenAPI from the resources (see web-module/pom.xml and {@link OpenApiCompletion}) into
 * {@code META-INF/openapi.json} and {@code META-INF/openapi.yaml}; this resource serves them as they are.
 */
@Path("openapi")
@ApplicationScoped
@PermitAll
@Tag(name = "operations")
public class OpenApiResource {

    static final String YAML = "application/yaml";

    private static final String JSON_FILE = "/META-INF/openapi.json";
    private static final String YAML_FILE = "/META-INF/openapi.yaml";

    /** Read once: the files do not change while the application runs. */
    private static final class Files {
        static final String JSON = read(JSON_FILE);
        static final String YAML = read(YAML_FILE);
    }

    @GET
    @Produces({MediaType.APPLICATION_JSON, YAML, "text/yaml"})
    @Operation(summary = "This OpenAPI 3.1 document")
    @APIResponse(responseCode = "200", description = "The document",
            content = {@Content(mediaType = MediaType.APPLICATION_JSON), @Content(mediaType = YAML)})
    public Response get(@QueryParam("format") @Parameter(description = "json or yaml; overrides Accept") String format,
                        @Context HttpHeaders headers) {
        return yaml(format, headers.getAcceptableMediaTypes())
                ? Response.ok(Files.YAML, YAML + ";charset=utf-8").build()
                : Response.ok(Files.JSON, MediaType.APPLICATION_JSON_TYPE.withCharset("utf-8")).build();
    }

    static String read(String file) {
        try (InputStream in = OpenApiResource.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException(file + " is missing: the build generates it");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
