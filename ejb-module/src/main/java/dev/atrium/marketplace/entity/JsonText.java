package dev.atrium.marketplace.entity;

import java.util.List;

import jakarta.json.Json;

/** Compact JSON text of simple values, for the JSON columns of the record. */
final class JsonText {

    private JsonText() {
    }

    static String array(List<String> values) {
        var array = Json.createArrayBuilder();
        values.forEach(array::add);
        return array.build().toString();
    }
}
