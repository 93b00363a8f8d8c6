package dev.atrium.platform.boundary.openapi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;

import jakarta.annotation.security.PermitAll;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.platform.boundary.HtmlPages;
import dev.atrium.platform.error.BusinessException;

/**
 * A page that renders {@code /openapi}: Swagger UI from its WebJar (org.webjars:swagger-ui, in the WAR), started by
 * a script file of this application, so the page's policy allows scripts and styles from this origin only, no inline
 * script. Nothing is fetched from elsewhere.
 */
@Path("openapi/ui")
@ApplicationScoped
@PermitAll
@Tag(name = "operations")
public class OpenApiUiResource {

    private static final String OWN = "/openapi-ui/";
    private static final String WEBJAR = "META-INF/resources/webjars/swagger-ui/";
    private static final String JS = "text/javascript; charset=utf-8";

    /** Each file the page loads, with its type; the WebJar's other files are not served. */
    private static final Map<String, String> FILES = Map.of(
            "initializer.js", JS,
            "swagger-ui-bundle.js", JS,
            "swagger-ui.css", "text/css; charset=utf-8");

    /** The WebJar's version names its directory; read once from the jar's Maven properties. */
    private static final class WebJar {
        static final String DIRECTORY = WEBJAR + version() + "/";

        private static String version() {
            try (InputStream in = OpenApiUiResource.class.getClassLoader()
                    .getResourceAsStream("META-INF/maven/org.webjars/swagger-ui/pom.properties")) {
                if (in == null) {
                    throw new IllegalStateException("org.webjars:swagger-ui is missing from the WAR");
                }
                var properties = new Properties();
                properties.load(in);
                return properties.getProperty("version");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(summary = "A page that renders this OpenAPI document (Swagger UI), where operations can be tried")
    @APIResponse(responseCode = "200", description = "The page", content = @Content(mediaType = "text/html"))
    public Response page() {
        return file(OpenApiUiResource.class.getResourceAsStream(OWN + "index.html"), "text/html; charset=utf-8");
    }

    @GET
    @Path("{file: initializer\\.js|swagger-ui-bundle\\.js|swagger-ui\\.css}")
    @Operation(summary = "The script and style files of the API page")
    @APIResponse(responseCode = "200", description = "The file")
    @APIResponse(responseCode = "404", description = "No such file")
    public Response asset(@PathParam("file") String name) {
        String type = FILES.get(name);
        if (type == null) {
            throw BusinessException.notFound("API page file");
        }
        InputStream in = name.equals("initializer.js")
                ? OpenApiUiResource.class.getResourceAsStream(OWN + name)
                : OpenApiUiResource.class.getClassLoader().getResourceAsStream(WebJar.DIRECTORY + name);
        return file(in, type);
    }

    private static Response file(InputStream in, String type) {
        if (in == null) {
            throw BusinessException.notFound("API page file");
        }
        // streamed (the bundle is 1.6 MB) and closed by JAX-RS once written
        return HtmlPages.file(in, type);
    }
}
