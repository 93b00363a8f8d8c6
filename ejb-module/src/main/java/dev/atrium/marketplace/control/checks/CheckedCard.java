package dev.atrium.marketplace.control.checks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import dev.atrium.marketplace.entity.Permissions;
import dev.atrium.platform.http.JsonInput;

/**
 * What the pre-listing checks need of a card that passed validation: the entrypoint, the schemas, the test cases
 * (input and expected properties) and the permission declaration.
 */
record CheckedCard(List<String> entrypoint, JsonObject inputSchema, String outputSchema, List<TestCase> testCases,
                   Permissions permissions, boolean imageOnly) {

    /** One test case: its index in the card, its input, and the properties the output must have. */
    record TestCase(int index, JsonObject input, JsonObject expected) {
    }

    static CheckedCard of(String cardJson) {
        JsonObject card = JsonInput.read(cardJson).asJsonObject();
        JsonObject runtime = card.get("runtime") instanceof JsonObject r ? r : JsonValue.EMPTY_JSON_OBJECT;
        var entrypoint = new ArrayList<String>();
        if (runtime.get("entrypoint") instanceof JsonArray a) {
            a.forEach(v -> entrypoint.add(((JsonString) v).getString()));
        }
        var cases = new ArrayList<TestCase>();
        if (card.get("test_cases") instanceof JsonArray a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i) instanceof JsonObject c && c.get("input") instanceof JsonObject in) {
                    cases.add(new TestCase(i, in, c.get("expected") instanceof JsonObject e ? e
                            : JsonValue.EMPTY_JSON_OBJECT));
                }
            }
        }
        JsonObject input = card.get("input_schema") instanceof JsonObject s ? s : JsonValue.EMPTY_JSON_OBJECT;
        String output = card.get("output_schema") instanceof JsonObject s ? s.toString() : "{}";
        return new CheckedCard(entrypoint, input, output, cases, Permissions.of(cardJson),
                entrypoint.isEmpty() && runtime.containsKey("docker_image"));
    }

    /** The first property of {@code input_schema} that takes a string, or null: where injected text goes. */
    String firstStringProperty() {
        if (!(inputSchema.get("properties") instanceof JsonObject properties)) {
            return null;
        }
        for (Map.Entry<String, JsonValue> p : properties.entrySet()) {
            if (p.getValue() instanceof JsonObject schema && takesString(schema.get("type"))) {
                return p.getKey();
            }
        }
        return null;
    }

    private static boolean takesString(JsonValue type) {
        if (type instanceof JsonString s) {
            return s.getString().equals("string");
        }
        return type instanceof JsonArray a && a.stream().anyMatch(t -> t instanceof JsonString s
                && s.getString().equals("string"));
    }
}
