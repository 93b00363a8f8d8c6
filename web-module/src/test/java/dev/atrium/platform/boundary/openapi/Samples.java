package dev.atrium.platform.boundary.openapi;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** A value of every record component, none null, so that JSON-B writes every property. */
final class Samples {

    private Samples() {
    }

    static Object of(Type type) {
        Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType()
                : type instanceof Class<?> c ? c : Object.class;
        Type first = type instanceof ParameterizedType p ? p.getActualTypeArguments()[0] : Object.class;
        if (raw == int.class || raw == Integer.class) {
            return 1;
        }
        if (raw == long.class || raw == Long.class) {
            return 1L;
        }
        if (raw == boolean.class || raw == Boolean.class) {
            return true;
        }
        if (raw == double.class || raw == Double.class) {
            return 1.5;
        }
        if (raw == jakarta.json.JsonValue.class) {
            return jakarta.json.JsonValue.TRUE;
        }
        if (raw == BigDecimal.class) {
            return BigDecimal.ONE;
        }
        if (raw == Instant.class) {
            return Instant.EPOCH;
        }
        if (raw == LocalDate.class) {
            return LocalDate.EPOCH;
        }
        if (raw == UUID.class) {
            return new UUID(0, 1);
        }
        if (List.class.isAssignableFrom(raw)) {
            return List.of(of(first));
        }
        if (Set.class.isAssignableFrom(raw)) {
            return Set.of(of(first));
        }
        if (Map.class.isAssignableFrom(raw)) {
            Type value = ((ParameterizedType) type).getActualTypeArguments()[1];
            return Map.of("key", of(value));
        }
        if (raw.isEnum()) {
            return raw.getEnumConstants()[0];
        }
        if (raw.isRecord()) {
            return record(raw);
        }
        return "text";
    }

    static Object record(Class<?> type) {
        RecordComponent[] components = type.getRecordComponents();
        Object[] values = Arrays.stream(components).map(c -> of(c.getGenericType())).toArray();
        try {
            var constructor = type.getDeclaredConstructor(
                    Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
            constructor.setAccessible(true);
            return constructor.newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot build a sample " + type.getName(), e);
        }
    }
}
