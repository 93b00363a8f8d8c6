package dev.atrium.platform.boundary.openapi;

import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

/**
 * Reads the block-style YAML subset that {@link Yaml} writes (block mappings and sequences, plain and double-quoted
 * scalars, {@code {}} and {@code []}), strictly: anything else fails, so the test notices a change of shape.
 */
final class YamlReader {

    private final List<String> lines;
    private int position;

    private YamlReader(String text) {
        lines = new ArrayList<>(Arrays.asList(text.split("\n")));
    }

    static JsonValue read(String text) {
        var reader = new YamlReader(text);
        String first = reader.lines.get(0);
        JsonValue value = isCollectionLine(first) ? reader.block(0) : scalar(first);
        if (!isCollectionLine(first)) {
            reader.position = 1;
        }
        if (reader.position != reader.lines.size()) {
            throw new IllegalArgumentException("Unread line " + (reader.position + 1));
        }
        return value;
    }

    private static boolean isCollectionLine(String line) {
        return line.startsWith("-") || keyEnd(line) > 0;
    }

    private JsonValue block(int indent) {
        String line = lines.get(position);
        if (indentOf(line) != indent) {
            throw new IllegalArgumentException("Line " + (position + 1) + ": expected indent " + indent);
        }
        return line.substring(indent).startsWith("-") ? sequence(indent) : mapping(indent);
    }

    private JsonValue mapping(int indent) {
        JsonObjectBuilder object = Json.createObjectBuilder();
        while (position < lines.size() && indentOf(lines.get(position)) == indent
                && !lines.get(position).substring(indent).startsWith("-")) {
            String content = lines.get(position).substring(indent);
            int end = keyEnd(content);
            if (end < 0) {
                throw new IllegalArgumentException("Line " + (position + 1) + ": not a key");
            }
            String key = content.startsWith("\"") ? quoted(content.substring(0, end)) : content.substring(0, end);
            String rest = content.substring(end + 1);
            position++;
            if (rest.isEmpty()) {
                object.add(key, block(indentOf(lines.get(position))));
            } else if (rest.startsWith(" ")) {
                object.add(key, scalar(rest.substring(1)));
            } else {
                throw new IllegalArgumentException("Line " + position + ": no space after the colon");
            }
        }
        return object.build();
    }

    private JsonValue sequence(int indent) {
        JsonArrayBuilder array = Json.createArrayBuilder();
        while (position < lines.size() && indentOf(lines.get(position)) == indent
                && lines.get(position).substring(indent).startsWith("-")) {
            String content = lines.get(position).substring(indent);
            if (content.equals("-")) {
                position++;
                array.add(block(indentOf(lines.get(position))));
            } else if (content.startsWith("- ")) {
                String rest = content.substring(2);
                if (keyEnd(rest) > 0) {
                    // a mapping that starts on the dash's line: read it as if the dash were a space
                    lines.set(position, " ".repeat(indent + 2) + rest);
                    array.add(mapping(indent + 2));
                } else {
                    array.add(scalar(rest));
                    position++;
                }
            } else {
                throw new IllegalArgumentException("Line " + (position + 1) + ": bad sequence item");
            }
        }
        return array.build();
    }

    /** Where the key of a {@code key: value} line ends (the colon), or -1. */
    private static int keyEnd(String content) {
        if (content.startsWith("\"")) {
            int i = 1;
            while (i < content.length() && content.charAt(i) != '"') {
                i += content.charAt(i) == '\\' ? 2 : 1;
            }
            return i + 1 < content.length() && content.charAt(i + 1) == ':' ? i + 1 : -1;
        }
        int colon = content.indexOf(':');
        return colon > 0 && (colon == content.length() - 1 || content.charAt(colon + 1) == ' ') ? colon : -1;
    }

    private static JsonValue scalar(String text) {
        if (text.startsWith("\"")) {
            return Json.createValue(quoted(text));
        }
        switch (text) {
            case "{}":
                return JsonValue.EMPTY_JSON_OBJECT;
            case "[]":
                return JsonValue.EMPTY_JSON_ARRAY;
            case "true":
                return JsonValue.TRUE;
            case "false":
                return JsonValue.FALSE;
            case "null":
                return JsonValue.NULL;
            default:
                break;
        }
        if (text.matches("-?[0-9][0-9.eE+-]*")) {
            return Json.createValue(new BigDecimal(text));
        }
        if (!text.matches("[A-Za-z_/$][A-Za-z0-9_./$-]*")) {
            throw new IllegalArgumentException("Unexpected plain scalar: " + text);
        }
        return Json.createValue(text);
    }

    /** YAML double-quoted escapes as written by {@link Yaml} are JSON's. */
    private static String quoted(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return ((jakarta.json.JsonString) reader.readValue()).getString();
        }
    }

    private static int indentOf(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) == ' ') {
            i++;
        }
        return i;
    }
}
