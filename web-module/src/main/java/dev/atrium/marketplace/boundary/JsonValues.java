package dev.atrium.marketplace.boundary;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.StringReader;
import java.util.List;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;

/** Reads the JSON text columns of the record back into JSON values. */
public final class JsonValues {

    private JsonValues() {
    }

    public static JsonObject object(String text) {
        if (text == null) {
            return null;
        }
        try (var reader = JSON.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    public static List<String> strings(String arrayText) {
        try (var reader = JSON.createReader(new StringReader(arrayText))) {
            return reader.readArray().stream().map(v -> ((JsonString) v).getString()).toList();
        }
    }
}
