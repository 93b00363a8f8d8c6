package dev.atrium.platform.config;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.util.Optional;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A {@code @ConfigProperties} class filled with the defaults its annotations declare, as the container fills it when
 * nothing is configured: unit tests start from it and change the fields they test.
 */
public final class ConfigDefaults {

    private ConfigDefaults() {
    }

    public static <T> T of(Class<T> type) {
        try {
            var constructor = type.getDeclaredConstructor();
            constructor.setAccessible(true);
            T config = constructor.newInstance();
            for (Field field : type.getDeclaredFields()) {
                var property = field.getAnnotation(ConfigProperty.class);
                if (property == null || Modifier.isStatic(field.getModifiers())) {
                    continue;
                }
                field.setAccessible(true);
                field.set(config, value(field, property.defaultValue()));
            }
            return config;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot fill " + type.getName() + " with its defaults", e);
        }
    }

    private static Object value(Field field, String text) {
        Class<?> type = field.getType();
        boolean unset = ConfigProperty.UNCONFIGURED_VALUE.equals(text);
        if (type == Optional.class) {
            return unset || text.isEmpty() ? Optional.empty() : Optional.of(text);
        }
        if (unset) {
            throw new IllegalStateException(field + " has no default; give it one or make it Optional");
        }
        if (type == String.class) {
            return text;
        }
        if (type == int.class || type == Integer.class) {
            return Integer.valueOf(text);
        }
        if (type == long.class || type == Long.class) {
            return Long.valueOf(text);
        }
        if (type == boolean.class || type == Boolean.class) {
            return Boolean.valueOf(text);
        }
        if (type == double.class || type == Double.class) {
            return Double.valueOf(text);
        }
        if (type == BigDecimal.class) {
            return new BigDecimal(text);
        }
        throw new IllegalStateException(field + ": add a conversion for " + type.getName());
    }
}
