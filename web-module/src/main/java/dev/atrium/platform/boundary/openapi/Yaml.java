package dev.atrium.platform.boundary.openapi;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * Writes a JSON tree as block-style YAML that reads back as the same tree: strings stay plain only when no YAML
 * reader could take them for anything else (a number, a boolean, null, an indicator); all others are written
 * double-quoted with escapes.
 */
public final class Yaml {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_/$][A-Za-z0-9_./$-]*");
    // YAML 1.1 readers still take these for booleans or null
    private static final Set<String> RESERVED = Set.of("y", "n", "yes", "no", "on", "off", "true", "false", "null");

    private Yaml() {
    }

    public static String write(JsonValue value) {
        var out = new StringBuilder();
        if (isBlock(value)) {
            block(out, value, 0, false);
        } else {
            out.append(scalar(value)).append('\n');
        }
        return out.toString();
    }

    private static boolean isBlock(JsonValue value) {
        return value instanceof JsonObject o && !o.isEmpty() || value instanceof JsonArray a && !a.isEmpty();
    }

    /** A non-empty object or array at this indentation; with {@code inline} its first line follows a "- ". */
    private static void block(StringBuilder out, JsonValue value, int indent, boolean inline) {
        boolean first = true;
        if (value instanceof JsonObject object) {
            for (Map.Entry<String, JsonValue> e : object.entrySet()) {
                if (!(first && inline)) {
                    out.append(" ".repeat(indent));
                }
                first = false;
                out.append(string(e.getKey())).append(':');
                if (isBlock(e.getValue())) {
                    out.append('\n');
                    block(out, e.getValue(), indent + 2, false);
                } else {
                    out.append(' ').append(scalar(e.getValue())).append('\n');
                }
            }
            return;
        }
        for (JsonValue item : (JsonArray) value) {
            if (!(first && inline)) {
                out.append(" ".repeat(indent));
            }
            first = false;
            if (item instanceof JsonObject && isBlock(item)) {
                out.append("- ");
                block(out, item, indent + 2, true);
            } else if (isBlock(item)) {
                out.append("-\n");
                block(out, item, indent + 2, false);
            } else {
                out.append("- ").append(scalar(item)).append('\n');
            }
        }
    }

    private static String scalar(JsonValue value) {
        return switch (value.getValueType()) {
            case STRING -> string(((JsonString) value).getString());
            case OBJECT -> "{}";
            case ARRAY -> "[]";
            default -> value.toString();
        };
    }

    static String string(String s) {
        if (PLAIN.matcher(s).matches() && !RESERVED.contains(s.toLowerCase(Locale.ROOT))) {
            return s;
        }
        var out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    // control characters, and those YAML does not allow in a stream or reads as line breaks
                    if (c < 0x20 || c >= 0x7f && c <= 0x9f || c == '\u2028' || c == '\u2029' || c == '\ufeff'
                            || c >= '\ufffe') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
