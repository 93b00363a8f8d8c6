package dev.atrium.platform.boundary.http;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.StringReader;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.annotation.Priority;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;

import dev.atrium.platform.boundary.json.Json;

/**
 * {@code fields=a,b}: a successful JSON answer keeps only those fields, of the object or of each item of a list
 * envelope (the envelope's own fields stay). Unknown names are ignored.
 */
@Provider
@Priority(FilterOrder.FIELD_SELECTION)
public class FieldSelectionFilter implements ContainerResponseFilter {

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        String fields = request.getUriInfo().getQueryParameters().getFirst("fields");
        Object entity = response.getEntity();
        MediaType type = response.getMediaType();
        if (fields == null || fields.isBlank() || entity == null || response.getStatus() >= 300
                || type == null || !type.isCompatible(MediaType.APPLICATION_JSON_TYPE)
                || entity instanceof String || entity instanceof byte[]) {
            return;
        }
        Set<String> wanted = Arrays.stream(fields.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .collect(Collectors.toSet());
        JsonValue tree;
        try (var reader = JSON.createReader(new StringReader(Json.write(entity)))) {
            tree = reader.readValue();
        }
        JsonValue shaped = shape(tree, wanted);
        response.setEntity(shaped.toString(), response.getEntityAnnotations(), MediaType.APPLICATION_JSON_TYPE);
    }

    private static JsonValue shape(JsonValue tree, Set<String> wanted) {
        if (tree instanceof JsonObject object && object.get("items") instanceof JsonArray items) {
            var builder = JSON.createObjectBuilder(object);
            var kept = JSON.createArrayBuilder();
            items.forEach(item -> kept.add(select(item, wanted)));
            return builder.add("items", kept).build();
        }
        if (tree instanceof JsonArray array) {
            var kept = JSON.createArrayBuilder();
            array.forEach(item -> kept.add(select(item, wanted)));
            return kept.build();
        }
        return select(tree, wanted);
    }

    private static JsonValue select(JsonValue value, Set<String> wanted) {
        if (!(value instanceof JsonObject object)) {
            return value;
        }
        var builder = JSON.createObjectBuilder();
        object.forEach((name, v) -> {
            if (wanted.contains(name)) {
                builder.add(name, v);
            }
        });
        return builder.build();
    }
}
