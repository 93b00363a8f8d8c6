package dev.atrium.platform.boundary;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.http.JsonInput;

/**
 * The scalar fields of a request that may come as a JSON object, as a form, or as query parameters (spec 02's
 * "scalar parameters"). One resource method reads all three, since JAX-RS cannot reliably choose between methods
 * for a request without a body and so without a content type.
 */
public final class RequestFields {

    private RequestFields() {
    }

    public static Map<String, String> of(MediaType type, String body, MultivaluedMap<String, String> query) {
        var fields = new LinkedHashMap<String, String>();
        query.forEach((name, values) -> fields.put(name, values.isEmpty() ? null : values.get(0)));
        if (body == null || body.isBlank()) {
            return fields;
        }
        if (type != null && type.isCompatible(MediaType.APPLICATION_FORM_URLENCODED_TYPE)) {
            for (String pair : body.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                fields.put(name, value);
            }
            return fields;
        }
        JsonValue tree = JsonInput.read(body);
        if (!(tree instanceof JsonObject object)) {
            throw BusinessException.validation("body: a JSON object is required");
        }
        object.forEach((name, value) -> fields.put(name, switch (value.getValueType()) {
            case STRING -> ((JsonString) value).getString();
            case NULL -> null;
            default -> value.toString();
        }));
        return fields;
    }
}
