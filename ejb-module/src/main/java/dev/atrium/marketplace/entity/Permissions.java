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
 * The permission declaration of a card (spec 03): the {@code permissions} object, with {@code runtime}'s
 * {@code memory_mb}, {@code timeout_s} and {@code requires_network} as the older spelling. A value declared in both
 * places takes the stricter one. {@code null} means undeclared: the limits decide the default. {@code max_cpu_percent}
 * has no older spelling.
 */
public record Permissions(boolean network, boolean filesystem, List<String> allowedDomains, Integer maxMemoryMb,
                          Integer maxExecutionS, Integer maxCpuPercent, List<String> allowedEnvVars) {

    public static final Permissions NONE = new Permissions(false, false, List.of(), null, null, null, List.of());

    public Permissions {
        allowedDomains = List.copyOf(allowedDomains);
        allowedEnvVars = List.copyOf(allowedEnvVars);
    }

    /** Reads a card that passed validation. */
    public static Permissions of(String cardJson) {
        JsonObject card = JsonInput.read(cardJson).asJsonObject();
        JsonObject runtime = object(card, "runtime");
        JsonObject declared = object(card, "permissions");
        boolean network = bool(runtime, "requires_network") || bool(declared, "requires_network");
        return new Permissions(network, bool(declared, "requires_filesystem"), strings(declared, "allowed_domains"),
                stricter(integer(declared, "max_memory_mb"), integer(runtime, "memory_mb")),
                stricter(integer(declared, "max_execution_time_s"), integer(runtime, "timeout_s")),
                integer(declared, "max_cpu_percent"),
                strings(declared, "allowed_env_vars"));
    }

    private static JsonObject object(JsonObject o, String name) {
        JsonValue v = o.get(name);
        return v instanceof JsonObject obj ? obj : JsonValue.EMPTY_JSON_OBJECT;
    }

    private static boolean bool(JsonObject o, String name) {
        return o.get(name) == JsonValue.TRUE;
    }

    private static Integer integer(JsonObject o, String name) {
        // a stored card passed the schema's bounds; anything else reads as undeclared rather than failing a run
        if (o.get(name) instanceof JsonNumber n && n.isIntegral()) {
            try {
                return n.intValueExact();
            } catch (ArithmeticException e) {
                return null;
            }
        }
        return null;
    }

    private static List<String> strings(JsonObject o, String name) {
        var out = new ArrayList<String>();
        if (o.get(name) instanceof JsonArray a) {
            for (JsonValue v : a) {
                if (v instanceof JsonString s) {
                    out.add(s.getString());
                }
            }
        }
        return out;
    }

    private static Integer stricter(Integer a, Integer b) {
        return a == null ? b : b == null ? a : Integer.valueOf(Math.min(a, b));
    }
}
