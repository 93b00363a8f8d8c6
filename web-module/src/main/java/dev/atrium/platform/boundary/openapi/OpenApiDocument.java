package dev.atrium.platform.boundary.openapi;

import java.util.LinkedHashSet;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.Path;

/**
 * The application's OpenAPI document, built once on first use from the resource classes CDI knows (every resource
 * is a bean with {@code @Path}), so a resource added by any context is described without being listed here.
 */
@ApplicationScoped
public class OpenApiDocument {

    static final String TITLE = "Atrium";
    static final String VERSION = "1.0.0";

    /** The document, rendered. */
    record Rendered(String json, String yaml) {
    }

    @Inject
    BeanManager beans;

    private Rendered rendered;

    synchronized Rendered rendered() {
        if (rendered == null) {
            Set<Class<?>> resources = new LinkedHashSet<>();
            String applicationPath = "/";
            for (Bean<?> bean : beans.getBeans(Object.class, Any.Literal.INSTANCE)) {
                Class<?> type = bean.getBeanClass();
                if (type.isAnnotationPresent(Path.class)) {
                    resources.add(type);
                }
                if (type.isAnnotationPresent(ApplicationPath.class)) {
                    applicationPath = type.getAnnotation(ApplicationPath.class).value();
                }
            }
            JsonObject tree = OpenApiGenerator.document(TITLE, VERSION, applicationPath, resources);
            rendered = new Rendered(tree.toString(), Yaml.write(tree));
        }
        return rendered;
    }
}
