package dev.atrium.marketplace.entity;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.util.List;


/** Compact JSON text of simple values, for the JSON columns of the record. */
final class JsonText {

    private JsonText() {
    }

    static String array(List<String> values) {
        var array = JSON.createArrayBuilder();
        values.forEach(array::add);
        return array.build().toString();
    }
}
