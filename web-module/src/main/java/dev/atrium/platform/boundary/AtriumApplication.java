package dev.atrium.platform.boundary;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The whole API under the root path; resources and providers are discovered. */
@ApplicationPath("/")
@ApplicationScoped
public class AtriumApplication extends Application {

    @Override
    public Map<String, Object> getProperties() {
        // Location headers stay as the resources write them: paths relative to the API's root, like _links;
        // no WADL: the API describes itself in OpenAPI only; and Jersey does not buffer bodies to compute
        // Content-Length (its flush is a no-op until 8 KiB are buffered), so streamed answers leave at each flush;
        // the servlet container still sets Content-Length on small bodies it holds whole
        return Map.of("jersey.config.server.headers.location.relative.resolution.disabled", true,
                "jersey.config.server.wadl.disableWadl", true,
                "jersey.config.contentLength.buffer.server", 0);
    }
}
