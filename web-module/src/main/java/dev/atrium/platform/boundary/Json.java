package dev.atrium.platform.boundary;

import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.bind.JsonbConfig;
import jakarta.json.bind.config.PropertyNamingStrategy;

/** The one JSON-B configuration of the API: snake_case names, and null fields written as null. */
public final class Json {

    private static final Jsonb JSONB = JsonbBuilder.create(new JsonbConfig()
            .withPropertyNamingStrategy(PropertyNamingStrategy.LOWER_CASE_WITH_UNDERSCORES)
            .withNullValues(true));

    private Json() {
    }

    public static Jsonb jsonb() {
        return JSONB;
    }

    public static String write(Object value) {
        return JSONB.toJson(value);
    }
}
