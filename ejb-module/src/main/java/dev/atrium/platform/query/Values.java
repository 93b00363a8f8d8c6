package dev.atrium.platform.query;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.UUID;

import dev.atrium.platform.error.BusinessException;

/** Parses query-string values into the types of entity attributes, with a 422 that names the parameter. */
public final class Values {

    private Values() {
    }

    public static Object parse(String name, String raw, Class<?> type) {
        String value = raw.trim();
        try {
            if (type == String.class) {
                return value;
            }
            if (type == Long.class || type == long.class) {
                return Long.valueOf(value);
            }
            if (type == Integer.class || type == int.class) {
                return Integer.valueOf(value);
            }
            if (type == Double.class || type == double.class) {
                return Double.valueOf(value);
            }
            if (type == BigDecimal.class) {
                // plain decimals only: an exponent could name a number no NUMERIC column holds
                if (!value.matches("-?[0-9]{1,19}(\\.[0-9]{1,12})?")) {
                    throw new IllegalArgumentException(value);
                }
                return new BigDecimal(value);
            }
            if (type == Boolean.class || type == boolean.class) {
                return bool(name, value);
            }
            if (type == UUID.class) {
                return UUID.fromString(value);
            }
            if (type == Instant.class) {
                return instant(name, value);
            }
            if (type.isEnum()) {
                return enumValue(type, value);
            }
        } catch (IllegalArgumentException e) {
            throw BusinessException.validation(name + ": '" + shorten(value) + "' is not a valid " + describe(type));
        }
        throw new IllegalStateException("Unsupported filter type " + type.getSimpleName());
    }

    public static boolean bool(String name, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes" -> true;
            case "false", "0", "no" -> false;
            default -> throw BusinessException.validation(name + ": must be true or false");
        };
    }

    /** An ISO-8601 instant, or a date meaning the start of that day in UTC. */
    public static Instant instant(String name, String value) {
        try {
            if (value.length() == 10) {
                return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
            }
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            throw BusinessException.validation(name + ": must be an ISO-8601 date or date-time, e.g. 2026-01-31T12:00:00Z");
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumValue(Class<?> type, String value) {
        return Enum.valueOf((Class<? extends Enum>) type, value.toUpperCase(Locale.ROOT));
    }

    private static String describe(Class<?> type) {
        if (type.isEnum()) {
            var names = new StringBuilder();
            for (Object c : type.getEnumConstants()) {
                names.append(names.length() == 0 ? "" : ", ").append(c.toString().toLowerCase(Locale.ROOT));
            }
            return "value (one of " + names + ")";
        }
        if (type == Double.class || type == BigDecimal.class) {
            return "number";
        }
        return type == Long.class || type == Integer.class ? "integer" : type.getSimpleName().toLowerCase(Locale.ROOT);
    }

    private static String shorten(String value) {
        return value.length() > 40 ? value.substring(0, 40) + "…" : value;
    }
}
