package dev.atrium.marketplace.control.submission;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

import dev.atrium.marketplace.entity.AgentCard;
import dev.atrium.marketplace.entity.Capability;
import dev.atrium.marketplace.entity.Permissions;
import dev.atrium.marketplace.entity.SemanticVersion;
import dev.atrium.marketplace.entity.VersionRange;
import dev.atrium.platform.http.JsonInput;

/**
 * Validates an agent card: first against the card's own JSON Schema (draft 2020-12, {@link #SCHEMA_RESOURCE}), then
 * what a schema cannot say: {@code input_schema} and {@code output_schema} must be valid JSON Schemas themselves
 * (checked against the draft 2020-12 meta-schema), each test case's input must satisfy {@code input_schema}, and a
 * bundle needs an entrypoint while an agent without one needs an image. Every problem is reported with its JSON
 * pointer, not only the first; a card that is not JSON is refused as malformed ({@link JsonInput}). Schemas are
 * never fetched from the network: a remote {@code $ref} fails. Thread-safe.
 */
public final class CardValidator {

    public static final String SCHEMA_RESOURCE = "marketplace/agent-card.schema.json";
    /** The most a card's JSON may take. */
    public static final int CARD_MAX_BYTES = 256 * 1024;

    /** The result: a card when {@code problems} is empty. */
    public record Result(AgentCard card, List<SubmissionProblem> problems) {

        public boolean valid() {
            return problems.isEmpty();
        }
    }

    private final SchemaRegistry registry;
    private final Schema cardSchema;
    private final Schema metaSchema;

    public CardValidator() {
        registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                builder -> builder.schemaLoader(loader -> loader.fetchRemoteResources(false)));
        cardSchema = registry.getSchema(schemaText(), InputFormat.JSON);
        metaSchema = registry.getSchema(SchemaLocation.of(SpecificationVersion.DRAFT_2020_12.getDialectId()));
    }

    /** The card schema as kept in the repository and served to developers. */
    public static String schemaText() {
        try (InputStream in = CardValidator.class.getClassLoader().getResourceAsStream(SCHEMA_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("Missing " + SCHEMA_RESOURCE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Result validate(String text, boolean withBundle) {
        return validate(text, withBundle, false);
    }

    /** With {@code withImage}, an image archive was uploaded: its Entrypoint/Cmd stand in for runtime.entrypoint. */
    public Result validate(String text, boolean withBundle, boolean withImage) {
        // a card that is not JSON at all is malformed input (400), not a card with problems to list
        JsonValue value = JsonInput.read(text, "card: the part is not valid JSON, or nests deeper than "
                + JsonInput.MAX_DEPTH + " levels");
        if (!(value instanceof JsonObject card)) {
            return new Result(null, List.of(SubmissionProblem.card("", "The card must be a JSON object")));
        }
        var problems = new LinkedHashSet<SubmissionProblem>();
        report(problems, "", cardSchema.validate(card.toString(), InputFormat.JSON));
        boolean inputSchemaValid = checkSchema(problems, card, "input_schema");
        checkSchema(problems, card, "output_schema");
        if (inputSchemaValid) {
            checkTestCases(problems, card);
        }
        checkRuntime(problems, card, withBundle, withImage);
        checkDependencies(problems, card);
        checkCapabilityNames(problems, card);
        if (!problems.isEmpty()) {
            var sorted = new ArrayList<>(problems);
            sorted.sort(Comparator.comparing(SubmissionProblem::pointer));
            return new Result(null, List.copyOf(sorted));
        }
        return new Result(toCard(card), List.of());
    }

    /**
     * The card of a stored version, validated when it was submitted. It is read, not judged again: rules added since
     * must not make an approved version unreadable.
     */
    public static AgentCard stored(String json) {
        return toCard((JsonObject) JsonInput.read(json));
    }

    /** Validates one value against a JSON Schema given as text; an empty list means valid. */
    public List<SubmissionProblem> validateAgainst(String schema, String instance) {
        return validateAgainst(registry.getSchema(schema, InputFormat.JSON), instance);
    }

    /**
     * A JSON Schema given as text, every keyword compiled now: validating against it later compiles nothing, and it
     * may be shared by threads.
     */
    public Schema compile(String schema) {
        Schema compiled = registry.getSchema(schema, InputFormat.JSON);
        compiled.initializeValidators();
        return compiled;
    }

    /** Validates one value against a compiled JSON Schema ({@link #compile}); an empty list means valid. */
    public List<SubmissionProblem> validateAgainst(Schema schema, String instance) {
        var problems = new LinkedHashSet<SubmissionProblem>();
        report(problems, "", schema.validate(instance, InputFormat.JSON));
        return List.copyOf(problems);
    }

    private boolean checkSchema(Set<SubmissionProblem> problems, JsonObject card, String field) {
        if (!(card.get(field) instanceof JsonObject schema)) {
            return false;
        }
        int before = problems.size();
        report(problems, "/" + field, metaSchema.validate(schema.toString(), InputFormat.JSON));
        if (problems.size() == before) {
            try {
                // compiling every keyword now resolves each $ref, so a remote or broken one fails here
                registry.getSchema(schema.toString(), InputFormat.JSON).initializeValidators();
            } catch (RuntimeException e) {
                problems.add(SubmissionProblem.card("/" + field, "Not a usable JSON Schema: " + brief(e)));
            }
        }
        return problems.size() == before;
    }

    private void checkTestCases(Set<SubmissionProblem> problems, JsonObject card) {
        if (!(card.get("test_cases") instanceof JsonArray cases)) {
            return;
        }
        Schema input = registry.getSchema(card.getJsonObject("input_schema").toString(), InputFormat.JSON);
        for (int i = 0; i < cases.size(); i++) {
            if (cases.get(i) instanceof JsonObject c && c.get("input") instanceof JsonObject in) {
                report(problems, "/test_cases/" + i + "/input", input.validate(in.toString(), InputFormat.JSON));
            }
        }
    }

    private static void checkRuntime(Set<SubmissionProblem> problems, JsonObject card, boolean withBundle,
                                     boolean withImage) {
        if (!(card.get("runtime") instanceof JsonObject runtime)) {
            return;
        }
        if (withImage) {
            // granted network and the invoke gateway go through the egress relay, a host program an image lacks
            if (Permissions.of(card.toString()).network()) {
                problems.add(SubmissionProblem.card("/permissions/requires_network", "an agent shipped as an image "
                        + "archive cannot be given network on this platform yet"));
            }
            if (!DependencyResolver.dependencies(card.toString()).isEmpty()) {
                problems.add(SubmissionProblem.card("/dependencies/agents", "an agent shipped as an image archive "
                        + "cannot call other agents on this platform yet"));
            }
        } else if (withBundle && !runtime.containsKey("entrypoint")) {
            problems.add(SubmissionProblem.card("/runtime/entrypoint",
                    "required when a bundle is submitted: the command the sandbox runs, e.g. [\"python3\",\"main.py\"]"));
        }
        if (!withBundle && !withImage && !runtime.containsKey("docker_image")) {
            problems.add(SubmissionProblem.card("/runtime/docker_image",
                    "required when no bundle is submitted: the image the sandbox runs"));
        }
        if (runtime.get("docker_image") instanceof JsonString image && card.get("version") instanceof JsonString v) {
            String problem = imageTagProblem(image.getString(), v.getString());
            if (problem != null) {
                problems.add(SubmissionProblem.card("/runtime/docker_image", problem));
            }
        }
    }

    /**
     * Each agent dependency's range must parse, and an agent may not depend on itself. Whether the dependencies
     * exist and fit is the submission's question ({@code DependencyResolver}): it needs the registry.
     */
    private static void checkDependencies(Set<SubmissionProblem> problems, JsonObject card) {
        if (!(card.get("dependencies") instanceof JsonObject dependencies)
                || !(dependencies.get("agents") instanceof JsonArray agents)) {
            return;
        }
        for (int i = 0; i < agents.size(); i++) {
            if (!(agents.get(i) instanceof JsonObject dependency)) {
                continue;
            }
            if (dependency.get("version") instanceof JsonString range) {
                try {
                    VersionRange.parse(range.getString());
                } catch (IllegalArgumentException e) {
                    problems.add(SubmissionProblem.card("/dependencies/agents/" + i + "/version", e.getMessage()));
                }
            }
            if (dependency.get("name") instanceof JsonString name && card.get("name") instanceof JsonString own
                    && name.getString().equals(own.getString())) {
                problems.add(SubmissionProblem.card("/dependencies/agents/" + i + "/name",
                        "an agent cannot depend on itself"));
            }
        }
    }

    /**
     * A capability is named once, whichever form names it: {@code "x"} and {@code {"name": "x"}} are the same
     * capability, which the schema's {@code uniqueItems} cannot see.
     */
    private static void checkCapabilityNames(Set<SubmissionProblem> problems, JsonObject card) {
        if (!(card.get("capabilities") instanceof JsonArray capabilities)) {
            return;
        }
        var seen = new HashMap<String, Integer>();
        for (int i = 0; i < capabilities.size(); i++) {
            JsonValue v = capabilities.get(i);
            String name = v instanceof JsonString s ? s.getString()
                    : v instanceof JsonObject o && o.get("name") instanceof JsonString s ? s.getString() : null;
            if (name == null) {
                continue;
            }
            Integer first = seen.putIfAbsent(name, i);
            if (first != null && !v.equals(capabilities.get(first))) {
                // identical entries are the schema's uniqueItems problem already
                problems.add(SubmissionProblem.card("/capabilities/" + i, "the capability '"
                        + (name.length() > 80 ? name.substring(0, 80) + "…" : name)
                        + "' is declared already at /capabilities/" + first));
            }
        }
    }

    /**
     * The image of a version carries that version as its tag ({@code registry/name:1.2.3}, optionally pinned by a
     * digest after it, {@code registry/name:1.2.3@sha256:…}); an untagged or digest-only image is refused, since the
     * version could not be read from it. Answers a problem, or null.
     */
    static String imageTagProblem(String image, String version) {
        String name = image;
        int at = name.indexOf('@');
        if (at >= 0) {
            name = name.substring(0, at);
        }
        int slash = name.lastIndexOf('/');
        int colon = name.lastIndexOf(':');
        if (colon <= slash) {
            return "the image must carry the agent's version as its tag: …:" + version;
        }
        String tag = name.substring(colon + 1);
        return tag.equals(version) ? null : "the image's tag '" + (tag.length() > 40 ? tag.substring(0, 40) + "…" : tag)
                + "' must be the agent's version " + version;
    }

    private static void report(Set<SubmissionProblem> problems, String prefix, List<Error> errors) {
        for (Error e : errors) {
            String pointer = prefix + pointer(e);
            String message = e.getMessage();
            // "/x: message" is how the library words it; the pointer has its own field
            int colon = message.indexOf(": ");
            if (colon > 0 && message.substring(0, colon).equals(e.getInstanceLocation().toString())) {
                message = message.substring(colon + 2);
            }
            problems.add(SubmissionProblem.card(pointer, message));
        }
    }

    /** The instance location; a missing required property points at the property itself. */
    private static String pointer(Error e) {
        String location = e.getInstanceLocation().toString();
        location = location.equals("$") || location.equals("/") ? "" : location;
        if ("required".equals(e.getKeyword()) && e.getProperty() != null) {
            return location + "/" + escape(e.getProperty());
        }
        return location;
    }

    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    private static String brief(RuntimeException e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m.length() > 200 ? m.substring(0, 200) : m;
    }

    private static AgentCard toCard(JsonObject card) {
        JsonObject runtime = card.getJsonObject("runtime");
        String name = card.getString("name");
        return new AgentCard(
                card.toString(),
                name,
                card.getString("display_name", name),
                SemanticVersion.parse(card.getString("version")),
                card.getString("description"),
                card.getString("category"),
                strings(card, "tags"),
                Capability.names(Capability.all(card.get("capabilities"))),
                card.getJsonObject("input_schema").toString(),
                card.getJsonObject("output_schema").toString(),
                card.containsKey("pricing") ? card.getJsonObject("pricing").toString() : null,
                runtime.getString("docker_image", null),
                strings(runtime, "entrypoint"),
                runtime.get("memory_mb") instanceof JsonNumber n ? n.intValue() : null,
                runtime.get("timeout_s") instanceof JsonNumber n ? n.intValue() : null,
                runtime.getBoolean("requires_network", false),
                card.get("quality_score") instanceof JsonNumber q ? q.doubleValue() : 0,
                card.getString("trust_level", null),
                card.containsKey("test_cases") ? card.getJsonArray("test_cases").size() : 0);
    }

    private static List<String> strings(JsonObject object, String field) {
        if (!(object.get(field) instanceof JsonArray array)) {
            return List.of();
        }
        return array.stream().map(v -> ((JsonString) v).getString()).toList();
    }
}
