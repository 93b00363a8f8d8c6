package dev.atrium.platform.boundary.openapi;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.URL;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.json.bind.annotation.JsonbTransient;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Negative;
import jakarta.validation.constraints.NegativeOrZero;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Java types as OpenAPI 3.0 schemas, shaped the way the API's JSON-B configuration writes them: snake_case names,
 * null fields written as null. Simple types are inlined; records and classes become named components referenced
 * by {@code $ref}, generic ones once per set of type arguments ({@code ListEnvelope_ArticleView}).
 */
final class SchemaRegistry {

    static final String REF_PREFIX = "#/components/schemas/";

    /** A generic type with its arguments resolved, comparable by value (the JDK's implementations are not). */
    record Generic(Class<?> raw, List<Type> args) implements Type {
    }

    /** An array of a generic component type, resolved. */
    record ArrayOf(Type component) implements Type {
    }

    private final Map<String, JsonObject> components = new TreeMap<>();
    private final Map<Type, String> names = new HashMap<>();

    /** Uses a hand-written schema for a type, under the given name. */
    void define(Class<?> type, String name, JsonObject schema) {
        names.put(type, name);
        components.put(name, schema);
    }

    JsonObject components() {
        var builder = Json.createObjectBuilder();
        components.forEach(builder::add);
        return builder.build();
    }

    JsonObject schema(Type type) {
        return schemaOf(resolve(type, Map.of()));
    }

    /** The schema of a property, parameter or body of this type carrying these annotations. */
    JsonObject schema(Type type, List<Annotation> annotations) {
        Schema declared = find(annotations, Schema.class);
        Type actual = declared != null && declared.implementation() != Void.class ? declared.implementation() : type;
        JsonObject base = schema(actual);
        var extra = new LinkedHashMap<String, JsonValue>();
        constrain(extra, annotations, kind(base));
        if (declared != null) {
            describe(extra, declared, kind(base));
        }
        return merge(base, extra);
    }

    /** Required properties: primitives (never null), values that may not be null, and what @Schema says. */
    static boolean isRequired(Type type, List<Annotation> annotations) {
        Schema declared = find(annotations, Schema.class);
        return type instanceof Class<?> c && c.isPrimitive() || mandatory(annotations)
                || declared != null && declared.required();
    }

    /** Bean Validation refuses a missing value. */
    static boolean mandatory(List<Annotation> annotations) {
        return find(annotations, NotNull.class) != null || find(annotations, NotBlank.class) != null
                || find(annotations, NotEmpty.class) != null;
    }

    static <A extends Annotation> A find(List<Annotation> annotations, Class<A> type) {
        for (Annotation a : annotations) {
            if (type.isInstance(a)) {
                return type.cast(a);
            }
        }
        return null;
    }

    /** JSON-B's LOWER_CASE_WITH_UNDERSCORES: a separator before an upper-case letter following a lower-case one. */
    static String jsonName(String javaName) {
        var out = new StringBuilder(javaName.length() + 4);
        char previous = 0;
        for (int i = 0; i < javaName.length(); i++) {
            char c = javaName.charAt(i);
            if (i > 0 && Character.isUpperCase(c) && Character.isAlphabetic(previous)
                    && Character.isLowerCase(previous)) {
                out.append('_');
            }
            out.append(Character.toLowerCase(c));
            previous = c;
        }
        return out.toString();
    }

    /** Adds keywords to a schema; a {@code $ref} takes no siblings in OpenAPI 3.0, so it is wrapped in allOf. */
    static JsonObject merge(JsonObject base, Map<String, JsonValue> extra) {
        if (extra.isEmpty()) {
            return base;
        }
        JsonObjectBuilder builder = base.containsKey("$ref")
                ? Json.createObjectBuilder().add("allOf", Json.createArrayBuilder().add(base))
                : Json.createObjectBuilder(base);
        extra.forEach(builder::add);
        return builder.build();
    }

    private JsonObject schemaOf(Type type) {
        if (type instanceof ArrayOf array) {
            return array(schemaOf(array.component()));
        }
        if (type instanceof Generic generic) {
            Class<?> raw = generic.raw();
            if (Collection.class.isAssignableFrom(raw)) {
                return collection(raw, schemaOf(generic.args().get(0)));
            }
            if (Map.class.isAssignableFrom(raw)) {
                return Json.createObjectBuilder().add("type", "object")
                        .add("additionalProperties", schemaOf(generic.args().get(1))).build();
            }
            if (raw == Optional.class) {
                return schemaOf(generic.args().get(0));
            }
            return named(generic);
        }
        Class<?> c = (Class<?>) type;
        if (c.isArray()) {
            return array(schemaOf(c.getComponentType()));
        }
        JsonObject simple = simple(c);
        if (simple != null) {
            return simple;
        }
        if (c.isEnum()) {
            var values = Json.createArrayBuilder();
            Arrays.stream(c.getEnumConstants()).map(e -> ((Enum<?>) e).name().toLowerCase(Locale.ROOT))
                    .forEach(values::add);
            return Json.createObjectBuilder().add("type", "string").add("enum", values).build();
        }
        if (Collection.class.isAssignableFrom(c)) {
            return collection(c, JsonValue.EMPTY_JSON_OBJECT);
        }
        if (Map.class.isAssignableFrom(c) || JsonObject.class.isAssignableFrom(c)) {
            return Json.createObjectBuilder().add("type", "object").build();
        }
        if (JsonArray.class.isAssignableFrom(c)) {
            return array(JsonValue.EMPTY_JSON_OBJECT);
        }
        if (c == Object.class || JsonValue.class.isAssignableFrom(c) || c.getName().startsWith("java.")) {
            // anything JSON can carry: the type says nothing more
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        return named(c);
    }

    private static JsonObject simple(Class<?> c) {
        if (c == String.class || c == char.class || c == Character.class || c == CharSequence.class) {
            return type("string", null);
        }
        if (c == int.class || c == Integer.class || c == short.class || c == Short.class || c == byte.class
                || c == Byte.class) {
            return type("integer", "int32");
        }
        if (c == long.class || c == Long.class) {
            return type("integer", "int64");
        }
        if (c == BigInteger.class) {
            return type("integer", null);
        }
        if (c == boolean.class || c == Boolean.class) {
            return type("boolean", null);
        }
        if (c == double.class || c == Double.class) {
            return type("number", "double");
        }
        if (c == float.class || c == Float.class) {
            return type("number", "float");
        }
        if (c == BigDecimal.class || c == Number.class) {
            return type("number", null);
        }
        if (c == Instant.class || c == OffsetDateTime.class || c == ZonedDateTime.class || c == Date.class) {
            return type("string", "date-time");
        }
        if (c == LocalDate.class) {
            return type("string", "date");
        }
        if (c == UUID.class) {
            return type("string", "uuid");
        }
        if (c == URI.class || c == URL.class) {
            return type("string", "uri");
        }
        if (c.getPackageName().equals("java.time")) {
            // durations, local times, zones: JSON-B writes their ISO text
            return type("string", null);
        }
        return null;
    }

    private static JsonObject type(String type, String format) {
        var builder = Json.createObjectBuilder().add("type", type);
        if (format != null) {
            builder.add("format", format);
        }
        return builder.build();
    }

    private static JsonObject array(JsonObject items) {
        return Json.createObjectBuilder().add("type", "array").add("items", items).build();
    }

    private static JsonObject collection(Class<?> raw, JsonObject items) {
        JsonObject array = array(items);
        return Set.class.isAssignableFrom(raw)
                ? Json.createObjectBuilder(array).add("uniqueItems", true).build() : array;
    }

    private JsonObject named(Type type) {
        String name = names.get(type);
        if (name == null) {
            name = uniqueName(type);
            names.put(type, name);
            // reserved before the properties are built, so that a type referring to itself ends
            components.put(name, JsonValue.EMPTY_JSON_OBJECT);
            components.put(name, objectSchema(type));
        }
        return Json.createObjectBuilder().add("$ref", REF_PREFIX + name).build();
    }

    private String uniqueName(Type type) {
        String name = baseName(type, false);
        if (!components.containsKey(name)) {
            return name;
        }
        // two types share a simple name: the later one (in the generator's sorted order) is fully qualified
        String qualified = baseName(type, true);
        String candidate = qualified;
        for (int i = 2; components.containsKey(candidate); i++) {
            candidate = qualified + "_" + i;
        }
        return candidate;
    }

    private static String baseName(Type type, boolean qualified) {
        if (type instanceof Generic generic) {
            return baseName(generic.raw(), qualified) + generic.args().stream().map(a -> baseName(a, qualified))
                    .map(n -> "_" + n).collect(Collectors.joining());
        }
        if (type instanceof ArrayOf array) {
            return baseName(array.component(), qualified) + "Array";
        }
        Class<?> c = (Class<?>) type;
        if (c.isArray()) {
            return baseName(c.getComponentType(), qualified) + "Array";
        }
        if (qualified) {
            return c.getName().replace('$', '.');
        }
        Schema schema = c.getAnnotation(Schema.class);
        return schema != null && !schema.name().isBlank() ? schema.name() : c.getSimpleName();
    }

    private JsonObject objectSchema(Type type) {
        Class<?> raw = type instanceof Generic g ? g.raw() : (Class<?>) type;
        var bindings = new HashMap<TypeVariable<?>, Type>();
        if (type instanceof Generic g) {
            TypeVariable<?>[] variables = raw.getTypeParameters();
            for (int i = 0; i < variables.length && i < g.args().size(); i++) {
                bindings.put(variables[i], g.args().get(i));
            }
        }
        var properties = Json.createObjectBuilder();
        var required = Json.createArrayBuilder();
        boolean anyRequired = false;
        for (Property p : properties(raw)) {
            Schema declared = find(p.annotations(), Schema.class);
            if (find(p.annotations(), JsonbTransient.class) != null || declared != null && declared.hidden()) {
                continue;
            }
            JsonbProperty renamed = find(p.annotations(), JsonbProperty.class);
            String name = renamed != null && !renamed.value().isEmpty() ? renamed.value() : jsonName(p.name());
            Type resolved = resolve(p.type(), bindings);
            JsonObject schema = schema(resolved, p.annotations());
            if (isRequired(resolved, p.annotations())) {
                required.add(name);
                anyRequired = true;
            } else if (!schema.containsKey("nullable")) {
                // the API writes absent values as null
                schema = merge(schema, Map.of("nullable", JsonValue.TRUE));
            }
            properties.add(name, schema);
        }
        var builder = Json.createObjectBuilder().add("type", "object");
        Schema onType = raw.getAnnotation(Schema.class);
        if (onType != null && !onType.description().isBlank()) {
            builder.add("description", onType.description());
        }
        if (anyRequired) {
            builder.add("required", required);
        }
        return builder.add("properties", properties).build();
    }

    private record Property(String name, Type type, List<Annotation> annotations) {
    }

    /** The JSON-B properties of a type: record components, else public getters and public fields. */
    private static List<Property> properties(Class<?> raw) {
        var result = new ArrayList<Property>();
        if (raw.isRecord()) {
            for (RecordComponent component : raw.getRecordComponents()) {
                result.add(new Property(component.getName(), component.getGenericType(),
                        annotations(component, field(raw, component.getName()), component.getAccessor())));
            }
            return result;
        }
        var seen = new LinkedHashSet<String>();
        for (Method m : raw.getMethods()) {
            String name = getterName(m);
            if (name != null && seen.add(name)) {
                result.add(new Property(name, m.getGenericReturnType(), annotations(m, field(raw, name))));
            }
        }
        for (Field f : raw.getFields()) {
            int modifiers = f.getModifiers();
            if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers) && seen.add(f.getName())) {
                result.add(new Property(f.getName(), f.getGenericType(), annotations(f)));
            }
        }
        return result;
    }

    private static String getterName(Method m) {
        if (Modifier.isStatic(m.getModifiers()) || m.getParameterCount() > 0 || m.getDeclaringClass() == Object.class
                || m.isBridge() || m.isSynthetic()) {
            return null;
        }
        String n = m.getName();
        Class<?> r = m.getReturnType();
        if (n.startsWith("get") && n.length() > 3 && r != void.class) {
            return Character.toLowerCase(n.charAt(3)) + n.substring(4);
        }
        if (n.startsWith("is") && n.length() > 2 && (r == boolean.class || r == Boolean.class)) {
            return Character.toLowerCase(n.charAt(2)) + n.substring(3);
        }
        return null;
    }

    private static Field field(Class<?> type, String name) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            try {
                return c.getDeclaredField(name);
            } catch (NoSuchFieldException e) {
                // declared higher up, or a getter without a field
            }
        }
        return null;
    }

    /** Annotations on a record component reach its field or accessor depending on their targets: read them all. */
    private static List<Annotation> annotations(AnnotatedElement... elements) {
        var all = new ArrayList<Annotation>();
        for (AnnotatedElement e : elements) {
            if (e != null) {
                all.addAll(Arrays.asList(e.getAnnotations()));
            }
        }
        return all;
    }

    /** Substitutes type variables and normalises generic types into comparable values. */
    static Type resolve(Type type, Map<TypeVariable<?>, Type> bindings) {
        if (type instanceof Class<?> || type == null) {
            return type == null ? Object.class : type;
        }
        if (type instanceof Generic g) {
            return new Generic(g.raw(), g.args().stream().map(a -> resolve(a, bindings)).toList());
        }
        if (type instanceof ArrayOf a) {
            return new ArrayOf(resolve(a.component(), bindings));
        }
        if (type instanceof ParameterizedType p) {
            return new Generic((Class<?>) p.getRawType(),
                    Arrays.stream(p.getActualTypeArguments()).map(a -> resolve(a, bindings)).toList());
        }
        if (type instanceof GenericArrayType a) {
            Type component = resolve(a.getGenericComponentType(), bindings);
            return component instanceof Class<?> c ? c.arrayType() : new ArrayOf(component);
        }
        if (type instanceof WildcardType w) {
            return resolve(w.getUpperBounds()[0], bindings);
        }
        if (type instanceof TypeVariable<?> v) {
            Type bound = bindings.get(v);
            return bound != null ? bound : resolve(v.getBounds()[0], Map.of());
        }
        return Object.class;
    }

    private static String kind(JsonObject schema) {
        return schema.containsKey("type") ? schema.getString("type") : "";
    }

    /** Bean Validation constraints as schema keywords. */
    private static void constrain(Map<String, JsonValue> out, List<Annotation> annotations, String kind) {
        Size size = find(annotations, Size.class);
        if (size != null) {
            String[] keywords = switch (kind) {
                case "array" -> new String[] {"minItems", "maxItems"};
                case "object" -> new String[] {"minProperties", "maxProperties"};
                default -> new String[] {"minLength", "maxLength"};
            };
            if (size.min() > 0) {
                out.put(keywords[0], Json.createValue(size.min()));
            }
            if (size.max() < Integer.MAX_VALUE) {
                out.put(keywords[1], Json.createValue(size.max()));
            }
        }
        boolean nonEmpty = find(annotations, NotEmpty.class) != null
                || find(annotations, NotBlank.class) != null && kind.equals("string");
        if (nonEmpty) {
            String keyword = switch (kind) {
                case "array" -> "minItems";
                case "object" -> "minProperties";
                default -> "minLength";
            };
            if (!out.containsKey(keyword)) {
                out.put(keyword, Json.createValue(1));
            }
        }
        boolean integer = kind.equals("integer");
        Min min = find(annotations, Min.class);
        if (min != null) {
            out.put("minimum", Json.createValue(min.value()));
        }
        Max max = find(annotations, Max.class);
        if (max != null) {
            out.put("maximum", Json.createValue(max.value()));
        }
        DecimalMin decimalMin = find(annotations, DecimalMin.class);
        if (decimalMin != null) {
            out.put("minimum", Json.createValue(new BigDecimal(decimalMin.value())));
            if (!decimalMin.inclusive()) {
                out.put("exclusiveMinimum", JsonValue.TRUE);
            }
        }
        DecimalMax decimalMax = find(annotations, DecimalMax.class);
        if (decimalMax != null) {
            out.put("maximum", Json.createValue(new BigDecimal(decimalMax.value())));
            if (!decimalMax.inclusive()) {
                out.put("exclusiveMaximum", JsonValue.TRUE);
            }
        }
        if (find(annotations, Positive.class) != null) {
            out.put("minimum", Json.createValue(integer ? 1 : 0));
            if (!integer) {
                out.put("exclusiveMinimum", JsonValue.TRUE);
            }
        }
        if (find(annotations, PositiveOrZero.class) != null) {
            out.put("minimum", Json.createValue(0));
        }
        if (find(annotations, Negative.class) != null) {
            out.put("maximum", Json.createValue(integer ? -1 : 0));
            if (!integer) {
                out.put("exclusiveMaximum", JsonValue.TRUE);
            }
        }
        if (find(annotations, NegativeOrZero.class) != null) {
            out.put("maximum", Json.createValue(0));
        }
        if (find(annotations, Email.class) != null) {
            out.put("format", Json.createValue("email"));
        }
        Pattern pattern = find(annotations, Pattern.class);
        if (pattern != null) {
            out.put("pattern", Json.createValue(pattern.regexp()));
        }
    }

    /** What an MP OpenAPI {@code @Schema} on a property adds. */
    private static void describe(Map<String, JsonValue> out, Schema schema, String kind) {
        if (!schema.description().isBlank()) {
            out.put("description", Json.createValue(schema.description()));
        }
        if (!schema.format().isBlank()) {
            out.put("format", Json.createValue(schema.format()));
        }
        if (schema.enumeration().length > 0) {
            var values = Json.createArrayBuilder();
            Arrays.stream(schema.enumeration()).forEach(values::add);
            out.put("enum", values.build());
        }
        if (schema.nullable()) {
            out.put("nullable", JsonValue.TRUE);
        }
        if (!schema.example().isEmpty()) {
            out.put("example", typed(schema.example(), kind));
        }
        if (!schema.defaultValue().isEmpty()) {
            out.put("default", typed(schema.defaultValue(), kind));
        }
    }

    /** An annotation's text value as the JSON type of the schema it describes. */
    static JsonValue typed(String text, String kind) {
        try {
            return switch (kind) {
                case "integer" -> Json.createValue(Long.parseLong(text.trim()));
                case "number" -> Json.createValue(new BigDecimal(text.trim()));
                case "boolean" -> Boolean.parseBoolean(text.trim()) ? JsonValue.TRUE : JsonValue.FALSE;
                default -> Json.createValue(text);
            };
        } catch (NumberFormatException e) {
            return Json.createValue(text);
        }
    }
}
