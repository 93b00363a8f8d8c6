package dev.atrium.platform.boundary.json;

import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.bind.JsonbConfig;
import jakarta.json.bind.config.PropertyNamingStrategy;

import dev.atrium.platform.http.JsonInput;

/**
 * The one JSON-B configuration of the API: snake_case names, null fields written as null, and bodies read with
 * {@link JsonInput}'s parsers (nesting depth bounded, cut-off input refused).
 */
public final class Json {

    private static final Jsonb JSONB = JsonbBuilder.newBuilder()
            .withProvider(JsonInput.provider())
            .withConfig(new JsonbConfig()
                    .withPropertyNamingStrategy(PropertyNamingStrategy.LOWER_CASE_WITH_UNDERSCORES)
                    .withNullValues(true))
            .build();

    private Json() {
    }

    public static Jsonb jsonb() {
        return JSONB;
    }

    public static String write(Object value) {
        return JSONB.toJson(value);
    }
}
