package dev.atrium.platform.boundary.openapi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import jakarta.annotation.security.DenyAll;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.HttpMethod;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;

import dev.atrium.platform.query.ListQuery;

/**
 * Completes the document SmallRye OpenAPI scans from the resources at build time (web-module/pom.xml) with what
 * holds for every operation but is not written on each method: the bearer scheme where the access control asks for
 * a caller, the error answers in the shared envelope, and for {@link ListOf} methods the two list envelopes and
 * spec 01's list parameters. Runs in the build only; the served document is the file it produces.
 */
public class OpenApiCompletion implements OASFilter {

    static final String SECURITY_SCHEME = "bearer";
    static final String ERROR = "Error";
    /** The access control's name for "any authenticated caller", not a role to list. */
    private static final String ANY_AUTHENTICATED = "**";
    private static final String JSON = "application/json";

    /** Resource methods by the operation id SmallRye gives them (strategy CLASS_METHOD). */
    private final Map<String, Method> methods = resourceMethods();

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        var components = openAPI.getComponents() == null ? OASFactory.createComponents() : openAPI.getComponents();
        openAPI.setComponents(components);
        components.addSecurityScheme(SECURITY_SCHEME, OASFactory.createSecurityScheme()
                .type(SecurityScheme.Type.HTTP).scheme("bearer").bearerFormat("JWT")
                .description("Access token from POST /login (or an API key where accepted)"));
        if (components.getSchemas() == null || !components.getSchemas().containsKey(ERROR)) {
            throw new IllegalStateException("the error envelope schema " + ERROR + " is missing");
        }
        openAPI.getPaths().getPathItems().values().forEach(item -> item.getOperations().values().forEach(op -> {
            Method method = methods.get(op.getOperationId());
            if (method == null) {
                throw new IllegalStateException("no single resource method for operation " + op.getOperationId());
            }
            complete(op, method, components);
        }));
    }

    private void complete(Operation op, Method method, Components components) {
        List<String> roles = roles(method);
        ListOf listOf = method.getAnnotation(ListOf.class);
        if (listOf != null) {
            listResponse(op, listOf.value(), components);
            listParameters(op);
        }
        boolean input = op.getRequestBody() != null || op.getParameters() != null
                && op.getParameters().stream().anyMatch(p -> p.getIn() != Parameter.In.PATH);
        var errors = new LinkedHashMap<String, Shared>();
        errors.put("400", new Shared("BadRequest", "Malformed request: unreadable body, parameter or header"));
        if (roles != null) {
            op.setSecurity(List.of(OASFactory.createSecurityRequirement().addScheme(SECURITY_SCHEME)));
            errors.put("401", new Shared("Unauthorized",
                    "Not authenticated: credentials missing, invalid, expired or revoked"));
            errors.put("403", roles.isEmpty() ? new Shared("Forbidden", "Authenticated but not allowed")
                    : new Shared("Forbidden_" + String.join("_", roles),
                    "Authenticated but not allowed: requires role " + String.join(" or ", roles)));
        }
        errors.put("404", new Shared("NotFound", "No such resource, or not visible to the caller"));
        errors.put("405", new Shared("MethodNotAllowed", "Method not allowed"));
        if (input) {
            errors.put("415", new Shared("UnsupportedMediaType",
                    "Unsupported format: of the request body, or asked for in Accept"));
            errors.put("422", new Shared("ValidationFailed", "Request validation failed (code 40001)"));
        }
        errors.put("429", new Shared("TooManyRequests",
                "Too many requests (code 42900); see the X-RateLimit-* headers"));
        errors.put("500", new Shared("InternalError", "Unexpected server error; no internal detail is disclosed"));
        APIResponses responses = op.getResponses();
        errors.forEach((code, shared) -> {
            if (!responses.hasAPIResponse(code)) {
                if (components.getResponses() == null || !components.getResponses().containsKey(shared.name())) {
                    components.addResponse(shared.name(), OASFactory.createAPIResponse()
                            .description(shared.description()).content(errorContent()));
                }
                responses.addAPIResponse(code, OASFactory.createAPIResponse().ref(shared.name()));
            }
        });
        // whatever a method declares, the error mapper answers every 4xx and 5xx with the envelope
        responses.getAPIResponses().forEach((code, response) -> {
            if ((code.startsWith("4") || code.startsWith("5")) && response.getRef() == null
                    && (response.getContent() == null || response.getContent().getMediaTypes().isEmpty())) {
                response.setContent(errorContent());
            }
        });
    }

    /** An error answer shared by many operations, kept once under {@code components/responses}. */
    private record Shared(String name, String description) {
    }

    private static Content errorContent() {
        return OASFactory.createContent().addMediaType(JSON, OASFactory.createMediaType().schema(ref(ERROR)));
    }

    /**
     * Null when the operation is open to anyone, else the roles it needs (empty: any authenticated caller). The
     * method's annotations decide first, then the class's, as the container's access control does; with none, a
     * caller is needed.
     */
    static List<String> roles(Method method) {
        AnnotatedElement decides = decides(method) ? method : method.getDeclaringClass();
        if (decides.isAnnotationPresent(PermitAll.class)) {
            return null;
        }
        RolesAllowed allowed = decides.getAnnotation(RolesAllowed.class);
        return allowed == null ? List.of()
                : Arrays.stream(allowed.value()).filter(r -> !r.equals(ANY_AUTHENTICATED)).toList();
    }

    private static boolean decides(AnnotatedElement element) {
        return element.isAnnotationPresent(PermitAll.class) || element.isAnnotationPresent(RolesAllowed.class)
                || element.isAnnotationPresent(DenyAll.class);
    }

    /** The 200 answer of a list: a page envelope or a cursor envelope of the items, as the query asks. */
    private static void listResponse(Operation op, Class<?> itemType, Components components) {
        org.eclipse.microprofile.openapi.annotations.media.Schema named =
                itemType.getAnnotation(org.eclipse.microprofile.openapi.annotations.media.Schema.class);
        String item = named != null && !named.name().isBlank() ? named.name() : itemType.getSimpleName();
        if (!components.getSchemas().containsKey(item)) {
            throw new IllegalStateException(itemType.getName() + " is listed by " + op.getOperationId()
                    + " but has no schema: annotate it with @Schema");
        }
        Schema items = OASFactory.createSchema().addType(SchemaType.ARRAY).items(ref(item));
        Schema links = OASFactory.createSchema().addType(SchemaType.OBJECT)
                .additionalPropertiesSchema(OASFactory.createSchema().addType(SchemaType.STRING));
        addIfAbsent(components, "ListEnvelope" + item, OASFactory.createSchema().addType(SchemaType.OBJECT)
                .description("A page of items (page/page_size)")
                .addProperty("items", items)
                .addProperty("total", integer("int64"))
                .addProperty("page", integer("int32"))
                .addProperty("page_size", integer("int32"))
                .addProperty("_links", links)
                .required(List.of("items", "total", "page", "page_size")));
        addIfAbsent(components, "CursorEnvelope" + item, OASFactory.createSchema().addType(SchemaType.OBJECT)
                .description("A slice of items (cursor/limit); next_cursor is null on the last slice")
                .addProperty("items", items)
                .addProperty("limit", integer("int32"))
                .addProperty("next_cursor", OASFactory.createSchema().addType(SchemaType.STRING)
                        .addType(SchemaType.NULL))
                .addProperty("_links", links)
                .required(List.of("items", "limit")));
        op.getResponses().addAPIResponse("200", OASFactory.createAPIResponse()
                .description("A page of items: a ListEnvelope with page/page_size, a CursorEnvelope with cursor/limit")
                .content(OASFactory.createContent().addMediaType(JSON, OASFactory.createMediaType()
                        .schema(OASFactory.createSchema().oneOf(List.of(ref("ListEnvelope" + item),
                                ref("CursorEnvelope" + item)))))));
    }

    private static void addIfAbsent(Components components, String name, Schema schema) {
        if (!components.getSchemas().containsKey(name)) {
            components.addSchema(name, schema);
        }
    }

    /** Spec 01's list query parameters, which the list methods read through {@code ListQuery}. */
    private static void listParameters(Operation op) {
        var known = op.getParameters() == null ? List.<String>of()
                : op.getParameters().stream().map(Parameter::getName).toList();
        Stream.of(
                query("page", "Page number, from 1 (offset pagination)",
                        integer("int32").minimum(BigDecimal.ONE).defaultValue(1)),
                query("page_size", "Items per page (offset pagination)", bounded()),
                query("cursor", "Opaque cursor from next_cursor; switches to cursor pagination", string()),
                query("limit", "Items per slice; switches to cursor pagination", bounded()),
                query("sort", "Comma-separated fields, a leading - for descending; unknown fields are ignored",
                        string().defaultValue("-created_at")),
                query("fields", "Comma-separated fields to return of each item", string()),
                query("expand", "Comma-separated relations to return as nested objects instead of identifiers",
                        string()),
                query("search", "Text search", string().maxLength(200)),
                query("created_after", "Only items created after this instant", string().format("date-time")),
                query("created_before", "Only items created before this instant", string().format("date-time")),
                query("ids", "Comma-separated identifiers (batch read), at most " + ListQuery.MAX_PAGE_SIZE,
                        string()))
                .filter(p -> !known.contains(p.getName()))
                .forEach(op::addParameter);
    }

    private static Parameter query(String name, String description, Schema schema) {
        return OASFactory.createParameter().name(name).in(Parameter.In.QUERY).description(description)
                .required(false).schema(schema);
    }

    private static Schema bounded() {
        return integer("int32").minimum(BigDecimal.ONE)
                .maximum(BigDecimal.valueOf(ListQuery.MAX_PAGE_SIZE))
                .defaultValue(ListQuery.DEFAULT_PAGE_SIZE);
    }

    private static Schema integer(String format) {
        return OASFactory.createSchema().addType(SchemaType.INTEGER).format(format);
    }

    private static Schema string() {
        return OASFactory.createSchema().addType(SchemaType.STRING);
    }

    private static Schema ref(String schema) {
        return OASFactory.createSchema().ref(schema);
    }

    /**
     * The resource methods of this application by {@code SimpleClassName_method}, found in the classes directory
     * this class was compiled into. An id that two methods share maps to none, so the filter fails loudly.
     */
    static Map<String, Method> resourceMethods() {
        Path root;
        try {
            root = Path.of(OpenApiCompletion.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        var found = new HashMap<String, Method>();
        var shared = new HashSet<String>();
        try (Stream<Path> files = Files.walk(root)) {
            files.map(root::relativize).map(Path::toString)
                    .filter(f -> f.endsWith(".class") && !f.contains("-info"))
                    .map(f -> f.substring(0, f.length() - ".class".length()).replace('/', '.').replace('\\', '.'))
                    .map(OpenApiCompletion::load)
                    .filter(c -> c.isAnnotationPresent(jakarta.ws.rs.Path.class))
                    .forEach(c -> Arrays.stream(c.getMethods()).filter(OpenApiCompletion::isResourceMethod)
                            .forEach(m -> {
                                String id = c.getSimpleName() + "_" + m.getName();
                                if (found.putIfAbsent(id, m) != null) {
                                    shared.add(id);
                                }
                            }));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        shared.forEach(found::remove);
        return found;
    }

    static boolean isResourceMethod(Method m) {
        return !m.isBridge() && Arrays.stream(m.getAnnotations())
                .anyMatch(a -> a.annotationType().isAnnotationPresent(HttpMethod.class));
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, OpenApiCompletion.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
