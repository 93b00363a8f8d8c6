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
        // and no WADL: the API describes itself in OpenAPI only
        return Map.of("jersey.config.server.headers.location.relative.resolution.disabled", true,
                "jersey.config.server.wadl.disableWadl", true);
    }
}
