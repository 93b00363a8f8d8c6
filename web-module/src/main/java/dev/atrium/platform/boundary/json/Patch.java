package dev.atrium.platform.boundary.json;

import java.util.Set;
import java.util.function.Function;

import dev.atrium.platform.patch.Change;

/**
 * A PATCH body: the request record bound from JSON and validated, plus the names of the fields the client sent,
 * so "not sent" (leave unchanged) and "sent as null" (clear) stay different.
 */
public record Patch<T>(T value, Set<String> present) {

    public Patch {
        present = Set.copyOf(present);
    }

    /** The change of one field, by its JSON name and the record accessor that reads it. */
    public <V> Change<V> change(String jsonName, Function<T, V> accessor) {
        return present.contains(jsonName) ? Change.to(accessor.apply(value)) : Change.absent();
    }
}
