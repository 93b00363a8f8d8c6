package dev.atrium.platform.boundary.openapi;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

import jakarta.annotation.security.DenyAll;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.platform.boundary.CursorEnvelope;
import dev.atrium.platform.boundary.ErrorResponse;
import dev.atrium.platform.boundary.IdempotencyFilter;
import dev.atrium.platform.boundary.ListEnvelope;
import dev.atrium.platform.boundary.Patch;
import dev.atrium.platform.query.ListQuery;

/**
 * Builds an OpenAPI 3.0.3 document from JAX-RS resource classes by reflection. We do not use Payara's scanner: it
 * fails on records carrying Bean Validation annotations. Reads the JAX-RS annotations, the security annotations
 * (method first, then class, as the access control decides), Bean Validation, JSON-B names, the MicroProfile
 * OpenAPI annotations the resources use ({@code @Operation}, {@code @Tag}, {@code @Parameter}, {@code @RequestBody},
 * {@code @APIResponse}, {@code @Schema}) and {@link ListOf}. Sub-resource locators and {@code @BeanParam} are not
 * described.
 */
public final class OpenApiGenerator {

    static final String OPENAPI_VERSION = "3.0.3";
    static final String SECURITY_SCHEME = "bearer";

    /** The access control's role name for "any authenticated caller", not a role to list. */
    private static final String ANY_AUTHENTICATED = "**";
    private static final String ERROR_REF = SchemaRegistry.REF_PREFIX + "Error";
    private static final String FORM = MediaType.APPLICATION_FORM_URLENCODED;
    private static final List<String> METHOD_ORDER =
            List.of("get", "put", "post", "patch", "delete", "head", "options", "trace");

    private final SchemaRegistry schemas = new SchemaRegistry();
    private final Map<String, Map<String, Op>> paths = new TreeMap<>();
    private final Map<String, String> tags = new TreeMap<>();
    private final Set<String> operationIds = new HashSet<>();

    private OpenApiGenerator() {
        defineErrorSchemas();
    }

    /**
     * The document of these resource classes, served under {@code applicationPath}. Classes and methods are
     * visited in name order, so the same classes always give the same document.
     */
    public static JsonObject document(String title, String version, String applicationPath,
                                      Collection<Class<?>> resources) {
        var generator = new OpenApiGenerator();
        resources.stream().distinct().sorted(Comparator.comparing(Class::getName))
                .forEach(c -> generator.addResource(applicationPath, c));
        return generator.build(title, version);
    }

    /** The HTTP method of a resource method, lower case, or null: an annotation meta-annotated {@code @HttpMethod}. */
    static String httpMethod(Method m) {
        for (Annotation a : m.getAnnotations()) {
            HttpMethod http = a.annotationType().getAnnotation(HttpMethod.class);
            if (http != null) {
                return http.value().toLowerCase(Locale.ROOT);
            }
        }
        return null;
    }

    /** Joins path templates, reducing {@code {id: \d+}} to {@code {id}} and keeping the regular expressions. */
    static String path(Map<String, String> regexes, String... parts) {
        var out = new StringBuilder();
        for (String part : parts) {
            if (part == null) {
                continue;
            }
            for (String segment : template(part, regexes).split("/")) {
                if (!segment.isEmpty()) {
                    out.append('/').append(segment);
                }
            }
        }
        return out.isEmpty() ? "/" : out.toString();
    }

    private static String template(String raw, Map<String, String> regexes) {
        var out = new StringBuilder();
        int i = 0;
        while (i < raw.length()) {
            char c = raw.charAt(i);
            if (c != '{') {
                out.append(c);
                i++;
                continue;
            }
            int depth = 0;
            int end = i;
            for (; end < raw.length(); end++) {
                if (raw.charAt(end) == '{') {
                    depth++;
                } else if (raw.charAt(end) == '}' && --depth == 0) {
                    break;
                }
            }
            String inner = raw.substring(i + 1, Math.min(end, raw.length()));
            int colon = inner.indexOf(':');
            String name = (colon < 0 ? inner : inner.substring(0, colon)).trim();
            if (colon >= 0) {
                regexes.put(name, inner.substring(colon + 1).trim());
            }
            out.append('{').append(name).append('}');
            i = end + 1;
        }
        return out.toString();
    }

    private void addResource(String applicationPath, Class<?> resource) {
        Path classPath = resource.getAnnotation(Path.class);
        Arrays.stream(resource.getMethods()).filter(m -> !m.isBridge() && !m.isSynthetic())
                .filter(m -> httpMethod(m) != null)
                .sorted(Comparator.comparing(Method::getName)
                        .thenComparing(m -> Arrays.toString(m.getParameterTypes())))
                .forEach(m -> {
                    Operation operation = m.getAnnotation(Operation.class);
                    if (operation == null || !operation.hidden()) {
                        addOperation(applicationPath, classPath == null ? null : classPath.value(), resource, m);
                    }
                });
    }

    private void addOperation(String applicationPath, String classPath, Class<?> resource, Method m) {
        var regexes = new HashMap<String, String>();
        Path methodPath = m.getAnnotation(Path.class);
        String path = path(regexes, applicationPath, classPath, methodPath == null ? null : methodPath.value());
        String http = httpMethod(m);
        var op = new Op();
        op.operationId = operationId(resource, m);
        Operation operation = m.getAnnotation(Operation.class);
        if (operation != null) {
            op.summaries.add(operation.summary());
            op.description = operation.description().isBlank() ? null : operation.description();
        }
        op.deprecated = m.isAnnotationPresent(Deprecated.class) || resource.isAnnotationPresent(Deprecated.class)
                || operation != null && operation.deprecated();
        Tag[] tagged = m.getAnnotationsByType(Tag.class);
        for (Tag tag : tagged.length > 0 ? tagged : resource.getAnnotationsByType(Tag.class)) {
            op.tags.add(tag.name());
            tags.merge(tag.name(), tag.description(), (a, b) -> a.isBlank() ? b : a);
        }
        secure(op, resource, m);
        java.lang.reflect.Parameter entity = parameters(op, m, regexes);
        ListOf listOf = m.getAnnotation(ListOf.class);
        if (listOf != null) {
            listParameters().forEach(op::addParameter);
        }
        for (Parameter declared : m.getAnnotationsByType(Parameter.class)) {
            if (!declared.hidden() && !declared.name().isBlank()) {
                op.describeParameter(documented(declared));
            }
        }
        if (http.equals("post")) {
            op.addParameter(Json.createObjectBuilder().add("name", IdempotencyFilter.HEADER).add("in", "header")
                    .add("description", "Makes a retried POST safe: a repeat within 3600 s answers the first result")
                    .add("required", false).add("schema", Json.createObjectBuilder().add("type", "string")
                            .add("minLength", 1).add("maxLength", 255)).build());
        }
        if (!formBody(op, m)) {
            requestBody(op, m, entity, mediaTypes(m, resource, Consumes.class));
        }
        responses(op, m, mediaTypes(m, resource, Produces.class), listOf);
        paths.computeIfAbsent(path, k -> new TreeMap<>()).merge(http, op, Op::merge);
    }

    /** Method first, then class, as the access control decides; anything not {@code @PermitAll} needs a caller. */
    private static void secure(Op op, Class<?> resource, Method m) {
        Boolean permit = permitAll(m);
        if (permit == null) {
            permit = permitAll(resource);
        }
        op.secured = permit == null || !permit;
        RolesAllowed roles = permitAll(m) != null ? m.getAnnotation(RolesAllowed.class)
                : resource.getAnnotation(RolesAllowed.class);
        if (op.secured && roles != null) {
            Arrays.stream(roles.value()).filter(r -> !r.equals(ANY_AUTHENTICATED)).forEach(op.roles::add);
        }
    }

    /** Adds the path, query, header and cookie parameters; answers the entity parameter, if any. */
    private java.lang.reflect.Parameter parameters(Op op, Method m, Map<String, String> regexes) {
        java.lang.reflect.Parameter entity = null;
        for (java.lang.reflect.Parameter p : m.getParameters()) {
            String name;
            String in;
            if (p.isAnnotationPresent(PathParam.class)) {
                name = p.getAnnotation(PathParam.class).value();
                in = "path";
            } else if (p.isAnnotationPresent(QueryParam.class)) {
                name = p.getAnnotation(QueryParam.class).value();
                in = "query";
            } else if (p.isAnnotationPresent(HeaderParam.class)) {
                name = p.getAnnotation(HeaderParam.class).value();
                in = "header";
            } else if (p.isAnnotationPresent(CookieParam.class)) {
                name = p.getAnnotation(CookieParam.class).value();
                in = "cookie";
            } else {
                if (isEntity(p)) {
                    entity = p;
                }
                continue;
            }
            op.addParameter(parameter(name, in, p.getParameterizedType(), List.of(p.getAnnotations()),
                    in.equals("path") ? regexes.get(name) : null));
        }
        return entity;
    }

    /** Form parameters make one url-encoded body; false when there are none. */
    private boolean formBody(Op op, Method m) {
        var properties = Json.createObjectBuilder();
        var required = Json.createArrayBuilder();
        boolean any = false;
        boolean anyRequired = false;
        for (java.lang.reflect.Parameter p : m.getParameters()) {
            FormParam form = p.getAnnotation(FormParam.class);
            if (form != null) {
                List<Annotation> annotations = List.of(p.getAnnotations());
                properties.add(form.value(), schemas.schema(p.getParameterizedType(), annotations));
                any = true;
                if (SchemaRegistry.mandatory(annotations)) {
                    required.add(form.value());
                    anyRequired = true;
                }
            }
        }
        if (!any) {
            return false;
        }
        var schema = Json.createObjectBuilder().add("type", "object").add("properties", properties);
        if (anyRequired) {
            schema.add("required", required);
        }
        op.body.put(FORM, Json.createObjectBuilder().add("schema", schema).build());
        op.bodyRequired = anyRequired;
        return true;
    }

    private void requestBody(Op op, Method m, java.lang.reflect.Parameter entity, List<String> consumes) {
        RequestBody declared = m.getAnnotation(RequestBody.class);
        if (declared == null && entity != null) {
            declared = entity.getAnnotation(RequestBody.class);
        }
        List<Annotation> annotations = entity == null ? List.of() : List.of(entity.getAnnotations());
        if (declared != null && declared.content().length > 0) {
            for (Content content : declared.content()) {
                Class<?> implementation = content.schema().implementation();
                JsonObject schema = implementation != Void.class ? schemas.schema(implementation, annotations)
                        : entity != null ? schemas.schema(entity.getParameterizedType(), annotations)
                        : JsonValue.EMPTY_JSON_OBJECT;
                for (String type : content.mediaType().isBlank() ? consumes : List.of(content.mediaType())) {
                    op.body.put(type, Json.createObjectBuilder().add("schema", schema).build());
                }
            }
        } else if (entity != null) {
            JsonObject schema = schemas.schema(entity.getParameterizedType(), annotations);
            consumes.forEach(type -> op.body.put(type, Json.createObjectBuilder().add("schema", schema).build()));
        } else {
            return;
        }
        op.bodyRequired = SchemaRegistry.mandatory(annotations) || declared != null && declared.required()
                || entity != null && isPatch(entity.getParameterizedType());
        if (declared != null && !declared.description().isBlank()) {
            op.bodyDescription = declared.description();
        }
    }

    private void responses(Op op, Method m, List<String> produces, ListOf listOf) {
        Type returned = unwrapAsync(m.getGenericReturnType());
        APIResponse[] declared = m.getAnnotationsByType(APIResponse.class);
        for (APIResponse response : declared) {
            String code = response.responseCode().isBlank() ? "default" : response.responseCode();
            op.responses.put(code, declared(response, code, produces, returned));
        }
        if (listOf != null) {
            JsonObject schema = Json.createObjectBuilder().add("oneOf", Json.createArrayBuilder()
                    .add(schemas.schema(new SchemaRegistry.Generic(ListEnvelope.class, List.of(listOf.value()))))
                    .add(schemas.schema(new SchemaRegistry.Generic(CursorEnvelope.class, List.of(listOf.value())))))
                    .build();
            op.responses.put("200", Json.createObjectBuilder()
                    .add("description", "A page of items: a ListEnvelope with page/page_size, a CursorEnvelope with "
                            + "cursor/limit")
                    .add("content", content(produces, schema)).build());
            return;
        }
        if (op.responses.keySet().stream().anyMatch(code -> code.startsWith("2"))) {
            return;
        }
        if (returned == void.class || returned == Void.class) {
            op.responses.put("204", Json.createObjectBuilder().add("description", reason("204")).build());
            return;
        }
        var success = Json.createObjectBuilder().add("description", reason("200"));
        if (returned != Response.class) {
            success.add("content", content(produces, schemas.schema(returned)));
        }
        op.responses.put("200", success.build());
    }

    /** An {@code @APIResponse}; without content, a success shows the returned type and an error the envelope. */
    private JsonObject declared(APIResponse response, String code, List<String> produces, Type returned) {
        String description = response.description().isBlank() ? reason(code) : response.description();
        var content = new LinkedHashMap<String, JsonObject>();
        for (Content c : response.content()) {
            Class<?> implementation = c.schema().implementation();
            JsonObject mediaType = implementation != Void.class
                    ? Json.createObjectBuilder().add("schema", schemas.schema(implementation)).build()
                    : c.schema().type() != SchemaType.DEFAULT ? Json.createObjectBuilder().add("schema", inline(c.schema()))
                    .build() : JsonValue.EMPTY_JSON_OBJECT;
            (c.mediaType().isBlank() ? produces : List.of(c.mediaType())).forEach(t -> content.put(t, mediaType));
        }
        if (content.isEmpty() && (code.startsWith("4") || code.equals("500"))) {
            // the error mapper answers these with the envelope, whatever the method returns
            return error(description);
        }
        boolean describedByType = returned != void.class && returned != Void.class && returned != Response.class
                && returned != Object.class;
        if (content.isEmpty() && code.startsWith("2") && !code.equals("204") && describedByType) {
            JsonObject schema = schemas.schema(returned);
            produces.forEach(t -> content.put(t, Json.createObjectBuilder().add("schema", schema).build()));
        }
        var builder = Json.createObjectBuilder().add("description", description);
        if (!content.isEmpty() && !code.equals("204")) {
            var contentBuilder = Json.createObjectBuilder();
            content.forEach(contentBuilder::add);
            builder.add("content", contentBuilder);
        }
        return builder.build();
    }

    private JsonObject parameter(String name, String in, Type type, List<Annotation> annotations, String regex) {
        var schema = schemas.schema(type, annotations);
        var extra = new LinkedHashMap<String, JsonValue>();
        DefaultValue fallback = SchemaRegistry.find(annotations, DefaultValue.class);
        if (fallback != null) {
            extra.put("default", SchemaRegistry.typed(fallback.value(), schema.getString("type", "")));
        }
        if (regex != null && "string".equals(schema.getString("type", null))) {
            extra.put("pattern", Json.createValue("^(?:" + regex + ")$"));
        }
        var builder = Json.createObjectBuilder().add("name", name).add("in", in);
        Parameter documented = SchemaRegistry.find(annotations, Parameter.class);
        if (documented != null && !documented.description().isBlank()) {
            builder.add("description", documented.description());
        }
        boolean required = in.equals("path") || SchemaRegistry.mandatory(annotations)
                || documented != null && documented.required();
        return builder.add("required", required).add("schema", SchemaRegistry.merge(schema, extra)).build();
    }

    /** A schema given by type and format alone, such as a download's {@code string}/{@code binary}. */
    private static JsonObject inline(Schema schema) {
        var builder = Json.createObjectBuilder().add("type", schema.type().name().toLowerCase(Locale.ROOT));
        if (!schema.format().isBlank()) {
            builder.add("format", schema.format());
        }
        return builder.build();
    }

    /** A parameter documented only by an MP OpenAPI {@code @Parameter} on the method, like a list filter. */
    private JsonObject documented(Parameter declared) {
        String in = declared.in() == ParameterIn.DEFAULT ? "query" : declared.in().name().toLowerCase(Locale.ROOT);
        Schema schema = declared.schema();
        JsonObjectBuilder type;
        if (schema.implementation() != Void.class) {
            type = Json.createObjectBuilder(schemas.schema(schema.implementation()));
        } else {
            type = Json.createObjectBuilder().add("type", schema.type() == SchemaType.DEFAULT ? "string"
                    : schema.type().name().toLowerCase(Locale.ROOT));
        }
        if (schema.enumeration().length > 0) {
            var values = Json.createArrayBuilder();
            Arrays.stream(schema.enumeration()).forEach(values::add);
            type.add("enum", values);
        }
        var builder = Json.createObjectBuilder().add("name", declared.name()).add("in", in);
        if (!declared.description().isBlank()) {
            builder.add("description", declared.description());
        }
        return builder.add("required", in.equals("path") || declared.required()).add("schema", type).build();
    }

    /** Spec 01's list parameters, read by {@code ListRequest}. */
    private static List<JsonObject> listParameters() {
        int maxPageSize = ListQuery.MAX_PAGE_SIZE;
        int defaultPageSize = ListQuery.DEFAULT_PAGE_SIZE;
        return List.of(
                query("page", "Page number, from 1 (offset pagination)",
                        integer(1, null, 1)),
                query("page_size", "Items per page (offset pagination)",
                        integer(1, maxPageSize, defaultPageSize)),
                query("cursor", "Opaque cursor from next_cursor; switches to cursor pagination",
                        Json.createObjectBuilder().add("type", "string")),
                query("limit", "Items per slice; switches to cursor pagination",
                        integer(1, maxPageSize, defaultPageSize)),
                query("sort", "Comma-separated fields, a leading - for descending; unknown fields are ignored",
                        Json.createObjectBuilder().add("type", "string").add("default", "-created_at")),
                query("fields", "Comma-separated fields to return of each item",
                        Json.createObjectBuilder().add("type", "string")),
                query("expand", "Comma-separated relations to return as nested objects instead of identifiers",
                        Json.createObjectBuilder().add("type", "string")),
                query("search", "Text search",
                        Json.createObjectBuilder().add("type", "string").add("maxLength", 200)),
                query("created_after", "Only items created after this instant",
                        Json.createObjectBuilder().add("type", "string").add("format", "date-time")),
                query("created_before", "Only items created before this instant",
                        Json.createObjectBuilder().add("type", "string").add("format", "date-time")),
                query("ids", "Comma-separated identifiers (batch read), at most " + maxPageSize,
                        Json.createObjectBuilder().add("type", "string")));
    }

    private static JsonObjectBuilder integer(int minimum, Integer maximum, int fallback) {
        var builder = Json.createObjectBuilder().add("type", "integer").add("format", "int32").add("minimum", minimum);
        if (maximum != null) {
            builder.add("maximum", maximum);
        }
        return builder.add("default", fallback);
    }

    private static JsonObject query(String name, String description, JsonObjectBuilder schema) {
        return Json.createObjectBuilder().add("name", name).add("in", "query").add("description", description)
                .add("required", false).add("schema", schema).build();
    }

    private static JsonObject content(List<String> mediaTypes, JsonObject schema) {
        var content = Json.createObjectBuilder();
        mediaTypes.forEach(t -> content.add(t, Json.createObjectBuilder().add("schema", schema)));
        return content.build();
    }

    /** The access rule on one element: true, false, or null when it says nothing. */
    private static Boolean permitAll(AnnotatedElement element) {
        if (element.isAnnotationPresent(DenyAll.class) || element.isAnnotationPresent(RolesAllowed.class)) {
            return false;
        }
        return element.isAnnotationPresent(PermitAll.class) ? true : null;
    }

    /** {@code Patch<T>} and {@code List<Patch<T>>}: the PatchReader refuses an empty body. */
    private static boolean isPatch(Type type) {
        Type resolved = SchemaRegistry.resolve(type, Map.of());
        return resolved instanceof SchemaRegistry.Generic g && (g.raw() == Patch.class
                || Collection.class.isAssignableFrom(g.raw()) && isPatch(g.args().get(0)));
    }

    /** The entity parameter is the one JAX-RS injects nothing into. */
    private static boolean isEntity(java.lang.reflect.Parameter p) {
        return Arrays.stream(p.getAnnotations())
                .noneMatch(a -> a.annotationType().getPackageName().startsWith("jakarta.ws.rs"));
    }

    private static List<String> mediaTypes(Method m, Class<?> resource, Class<? extends Annotation> kind) {
        Annotation annotation = m.getAnnotation(kind);
        if (annotation == null) {
            annotation = resource.getAnnotation(kind);
        }
        String[] values = annotation instanceof Consumes c ? c.value()
                : annotation instanceof Produces p ? p.value() : new String[0];
        var types = new LinkedHashSet<String>();
        for (String value : values) {
            Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(types::add);
        }
        return types.isEmpty() ? List.of(MediaType.APPLICATION_JSON) : List.copyOf(types);
    }

    private static Type unwrapAsync(Type type) {
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw
                && (CompletionStage.class.isAssignableFrom(raw) || Future.class.isAssignableFrom(raw))) {
            return p.getActualTypeArguments()[0];
        }
        return type;
    }

    private String operationId(Class<?> resource, Method m) {
        Operation operation = m.getAnnotation(Operation.class);
        String id = operation != null && !operation.operationId().isBlank() ? operation.operationId()
                : resource.getSimpleName() + "_" + m.getName();
        String unique = id;
        for (int i = 2; !operationIds.add(unique); i++) {
            unique = id + "_" + i;
        }
        return unique;
    }

    private static String reason(String code) {
        try {
            Response.Status status = Response.Status.fromStatusCode(Integer.parseInt(code));
            return status == null ? "Response" : status.getReasonPhrase();
        } catch (NumberFormatException e) {
            return "Response";
        }
    }

    private JsonObject build(String title, String version) {
        var pathsJson = Json.createObjectBuilder();
        paths.forEach((path, operations) -> {
            var item = Json.createObjectBuilder();
            METHOD_ORDER.stream().filter(operations::containsKey)
                    .forEach(method -> item.add(method, operations.get(method).toJson()));
            pathsJson.add(path, item);
        });
        var tagsJson = Json.createArrayBuilder();
        tags.forEach((name, description) -> {
            var tag = Json.createObjectBuilder().add("name", name);
            if (!description.isBlank()) {
                tag.add("description", description);
            }
            tagsJson.add(tag);
        });
        return Json.createObjectBuilder()
                .add("openapi", OPENAPI_VERSION)
                .add("info", Json.createObjectBuilder().add("title", title).add("version", version)
                        .add("description", "Every error answers with the envelope #/components/schemas/Error. "
                                + "Operations marked with security take a bearer JWT or an sk- API key."))
                .add("tags", tagsJson)
                .add("paths", pathsJson)
                .add("components", Json.createObjectBuilder()
                        .add("schemas", schemas.components())
                        .add("securitySchemes", Json.createObjectBuilder().add(SECURITY_SCHEME,
                                Json.createObjectBuilder().add("type", "http").add("scheme", "bearer")
                                        .add("bearerFormat", "JWT or sk- API key")
                                        .add("description", "Authorization: Bearer <access token or sk- API key>"))))
                .build();
    }

    /** The error envelope, written out: the record alone would make every field optional and nullable. */
    private void defineErrorSchemas() {
        var body = Json.createObjectBuilder().add("type", "object")
                .add("required", Json.createArrayBuilder().add("code").add("message").add("details").add("doc_url"))
                .add("properties", Json.createObjectBuilder()
                        .add("code", Json.createObjectBuilder().add("type", "integer").add("format", "int32")
                                .add("description", "Business code: 5 digits, or the HTTP status times 100")
                                .add("example", 40001))
                        .add("message", Json.createObjectBuilder().add("type", "string")
                                .add("description", "What went wrong, for people"))
                        .add("details", Json.createObjectBuilder().add("type", "string").add("nullable", true)
                                .add("description", "Which input or rule, when known"))
                        .add("doc_url", Json.createObjectBuilder().add("type", "string").add("nullable", true)
                                .add("description", "Where to read more")))
                .build();
        schemas.define(ErrorResponse.ErrorBody.class, "ErrorBody", body);
        schemas.define(ErrorResponse.class, "Error", Json.createObjectBuilder().add("type", "object")
                .add("description", "Error envelope of every 4xx and 5xx answer")
                .add("required", Json.createArrayBuilder().add("error"))
                .add("properties", Json.createObjectBuilder().add("error", Json.createObjectBuilder()
                        .add("$ref", SchemaRegistry.REF_PREFIX + "ErrorBody")))
                .build());
    }

    private static JsonObject error(String description) {
        return Json.createObjectBuilder().add("description", description)
                .add("content", Json.createObjectBuilder().add(MediaType.APPLICATION_JSON, Json.createObjectBuilder()
                        .add("schema", Json.createObjectBuilder().add("$ref", ERROR_REF))))
                .build();
    }

    /** One operation while it is built; several resource methods on one path and method merge into one. */
    private static final class Op {
        String operationId;
        final List<String> summaries = new ArrayList<>();
        String description;
        boolean deprecated;
        final Set<String> tags = new LinkedHashSet<>();
        final Map<String, JsonObject> parameters = new LinkedHashMap<>();
        final Map<String, JsonObject> body = new LinkedHashMap<>();
        boolean bodyRequired;
        String bodyDescription;
        final Map<String, JsonObject> responses = new TreeMap<>();
        boolean secured;
        final Set<String> roles = new LinkedHashSet<>();

        void addParameter(JsonObject parameter) {
            parameters.putIfAbsent(key(parameter), parameter);
        }

        /** A method-level {@code @Parameter}: describes a parameter already there, or adds it. */
        void describeParameter(JsonObject parameter) {
            JsonObject existing = parameters.get(key(parameter));
            if (existing == null) {
                parameters.put(key(parameter), parameter);
            } else if (parameter.containsKey("description")) {
                parameters.put(key(parameter), Json.createObjectBuilder(existing)
                        .add("description", parameter.getString("description")).build());
            }
        }

        private static String key(JsonObject parameter) {
            return parameter.getString("in") + ":" + parameter.getString("name");
        }

        /**
         * The same path and method served by several methods, told apart by media type (one {@code /login} for a
         * JSON body, a form or query parameters): one operation whose body is required only if every variant
         * requires it.
         */
        Op merge(Op other) {
            summaries.addAll(other.summaries);
            deprecated &= other.deprecated;
            tags.addAll(other.tags);
            other.parameters.forEach(parameters::putIfAbsent);
            bodyRequired = bodyRequired && other.bodyRequired;
            other.body.forEach(body::putIfAbsent);
            other.responses.forEach((code, response) -> responses.merge(code, response, Op::mergeContent));
            secured |= other.secured;
            roles.addAll(other.roles);
            return this;
        }

        private static JsonObject mergeContent(JsonObject first, JsonObject second) {
            if (!second.containsKey("content")) {
                return first;
            }
            JsonObject known = first.containsKey("content") ? first.getJsonObject("content")
                    : JsonValue.EMPTY_JSON_OBJECT;
            var content = Json.createObjectBuilder(known);
            second.getJsonObject("content").forEach((type, media) -> {
                if (!known.containsKey(type)) {
                    content.add(type, media);
                }
            });
            return Json.createObjectBuilder(first).add("content", content).build();
        }

        JsonObject toJson() {
            var builder = Json.createObjectBuilder();
            if (!tags.isEmpty()) {
                var array = Json.createArrayBuilder();
                tags.forEach(array::add);
                builder.add("tags", array);
            }
            List<String> written = summaries.stream().filter(s -> !s.isBlank()).toList();
            if (!written.isEmpty()) {
                builder.add("summary", written.get(0));
            }
            if (written.size() > 1) {
                builder.add("description", "One of:\n- " + String.join("\n- ", written));
            } else if (description != null) {
                builder.add("description", description);
            }
            builder.add("operationId", operationId);
            if (!parameters.isEmpty()) {
                JsonArrayBuilder array = Json.createArrayBuilder();
                parameters.values().forEach(array::add);
                builder.add("parameters", array);
            }
            if (!body.isEmpty()) {
                var content = Json.createObjectBuilder();
                body.forEach(content::add);
                var requestBody = Json.createObjectBuilder();
                if (bodyDescription != null) {
                    requestBody.add("description", bodyDescription);
                }
                builder.add("requestBody", requestBody.add("required", bodyRequired).add("content", content));
            }
            var all = new TreeMap<>(responses);
            errors().forEach(all::putIfAbsent);
            var responsesJson = Json.createObjectBuilder();
            all.forEach(responsesJson::add);
            builder.add("responses", responsesJson);
            if (deprecated) {
                builder.add("deprecated", true);
            }
            if (secured) {
                builder.add("security", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add(SECURITY_SCHEME, JsonValue.EMPTY_JSON_ARRAY)));
            }
            return builder.build();
        }

        private Map<String, JsonObject> errors() {
            boolean input = !body.isEmpty()
                    || parameters.values().stream().anyMatch(p -> !p.getString("in").equals("path"));
            var errors = new LinkedHashMap<String, JsonObject>();
            errors.put("400", error("Malformed request: unreadable body, parameter or header"));
            if (secured) {
                errors.put("401", error("Not authenticated: credentials missing, invalid, expired or revoked"));
                errors.put("403", error(roles.isEmpty() ? "Authenticated but not allowed"
                        : "Authenticated but not allowed: requires role " + String.join(" or ", roles)));
            }
            errors.put("404", error("No such resource, or not visible to the caller"));
            errors.put("405", error("Method not allowed"));
            if (input) {
                errors.put("415", error("Unsupported format: of the request body, or asked for in Accept"));
                errors.put("422", error("Request validation failed (code 40001)"));
            }
            errors.put("429", error("Too many requests (code 42900); see the X-RateLimit-* headers"));
            errors.put("500", error("Unexpected server error; no internal detail is disclosed"));
            return errors;
        }
    }
}
