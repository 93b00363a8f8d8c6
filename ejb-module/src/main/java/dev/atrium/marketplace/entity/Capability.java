package dev.atrium.marketplace.entity;

import java.util.ArrayList;
import java.util.List;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import dev.atrium.platform.http.JsonInput;

/**
 * A capability declaration of a card (spec 03): {@code name}, {@code description}, {@code input_types} and
 * {@code output_types} (media types) and a self-assessed {@code confidence} from 0 to 1. A card may list a plain
 * string instead, read as {@code {name}}. Only {@code name} is required: the others are null or empty when not
 * declared.
 */
public record Capability(String name, String description, List<String> inputTypes, List<String> outputTypes,
                         Double confidence) {

    public Capability {
        inputTypes = List.copyOf(inputTypes);
        outputTypes = List.copyOf(outputTypes);
    }

    public static Capability named(String name) {
        return new Capability(name, null, List.of(), List.of(), null);
    }

    /**
     * The declarations of a card's {@code capabilities} array, in order. The card passed validation when it was
     * stored; anything else found in the array (from a card stored under older rules) is skipped, never an error.
     */
    public static List<Capability> all(JsonValue capabilities) {
        var out = new ArrayList<Capability>();
        if (!(capabilities instanceof JsonArray array)) {
            return out;
        }
        for (JsonValue v : array) {
            if (v instanceof JsonString s) {
                out.add(named(s.getString()));
            } else if (v instanceof JsonObject o && o.get("name") instanceof JsonString name) {
                out.add(new Capability(name.getString(),
                        o.get("description") instanceof JsonString d ? d.getString() : null,
                        strings(o.get("input_types")), strings(o.get("output_types")),
                        o.get("confidence") instanceof JsonNumber c ? c.doubleValue() : null));
            }
        }
        return out;
    }

    /** The declarations of a stored card's JSON text. */
    public static List<Capability> ofCard(String cardJson) {
        if (cardJson == null || cardJson.isBlank()) {
            return List.of();
        }
        JsonValue card = JsonInput.read(cardJson);
        return card instanceof JsonObject o ? all(o.get("capabilities")) : List.of();
    }

    public static List<String> names(List<Capability> capabilities) {
        return capabilities.stream().map(Capability::name).toList();
    }

    private static List<String> strings(JsonValue value) {
        var out = new ArrayList<String>();
        if (value instanceof JsonArray a) {
            for (JsonValue v : a) {
                if (v instanceof JsonString s) {
                    out.add(s.getString());
                }
            }
        }
        return out;
    }
}
