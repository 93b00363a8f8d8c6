package dev.atrium.platform.boundary.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.stream.Stream;

import jakarta.annotation.security.DenyAll;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.atrium.platform.boundary.http.ErrorResponse;

/**
 * The OpenAPI document SmallRye OpenAPI generated at build time for the whole WAR, checked against the resource
 * classes found in the compiled classes: every resource method is described, with the shared error envelope, the
 * bearer scheme where a caller is needed, the list envelopes and the snake_case names JSON-B writes.
 */
class WarDocumentTest {

    private static final String ERROR_REF = "#/components/schemas/Error";
    private static final List<String> ALWAYS = List.of("400", "404", "405", "429", "500");

    private final JsonObject document = WarResources.document();

    /** A resource method with the path and HTTP method it should have, worked out independently. */
    private record Endpoint(Class<?> resource, Method method, String path, String http) {
        JsonObject operation(JsonObject document) {
            return document.getJsonObject("paths").getJsonObject(path).getJsonObject(http);
        }

        @Override
        public String toString() {
            return resource.getSimpleName() + "." + method.getName() + " " + http + " " + path;
        }
    }

    private static List<Endpoint> endpoints() {
        var endpoints = new ArrayList<Endpoint>();
        for (Class<?> resource : WarResources.resources()) {
            for (Method m : resource.getMethods()) {
                String http = httpMethod(m);
                if (http != null && !m.isBridge()) {
                    endpoints.add(new Endpoint(resource, m, join(WarResources.applicationPath(),
                            resource.getAnnotation(Path.class).value(),
                            m.isAnnotationPresent(Path.class) ? m.getAnnotation(Path.class).value() : ""), http));
                }
            }
        }
        return endpoints;
    }

    private static String httpMethod(Method m) {
        return Arrays.stream(m.getAnnotations())
                .map(a -> a.annotationType().getAnnotation(jakarta.ws.rs.HttpMethod.class)).filter(Objects::nonNull)
                .map(h -> h.value().toLowerCase(Locale.ROOT)).findFirst().orElse(null);
    }

    private static String join(String... parts) {
        String joined = String.join("/", parts).replaceAll("\\{\\s*([\\w-]+)\\s*:[^}]*}", "{$1}")
                .replaceAll("/+", "/");
        joined = joined.endsWith("/") && joined.length() > 1 ? joined.substring(0, joined.length() - 1) : joined;
        return joined.startsWith("/") ? joined : "/" + joined;
    }

    private Stream<JsonObject> operations() {
        return document.getJsonObject("paths").values().stream()
                .flatMap(item -> item.asJsonObject().values().stream()).map(JsonValue::asJsonObject);
    }

    @Test
    void whenTheWarIsScannedThenItsResourcesAreFound() {
        assertThat(WarResources.resources()).extracting(Class::getSimpleName)
                .contains("ArticlesResource", "TagsResource", "LoginResource", "HealthResource", "OpenApiResource");
    }

    @Test
    void whenBuiltThenTheYamlFileIsTheSameDocumentAsTheJsonFile() throws Exception {
        var json = new ObjectMapper().readTree(WarResources.text("/META-INF/openapi.json"));
        var yaml = new ObjectMapper(new YAMLFactory()).readTree(WarResources.text("/META-INF/openapi.yaml"));

        assertThat(yaml).isEqualTo(json);
    }

    @Test
    void whenGeneratedThenItIsOpenApi31WithTheBearerScheme() {
        assertThat(document.getString("openapi")).startsWith("3.1.");
        assertThat(document.getJsonObject("info").getString("title")).isNotBlank();
        assertThat(document.getJsonObject("components").getJsonObject("securitySchemes").getJsonObject("bearer"))
                .containsEntry("type", Json.createValue("http")).containsEntry("scheme", Json.createValue("bearer"));
    }

    @Test
    void whenAnyResourceMethodThenItsPathAndMethodAreDescribed() {
        List<Endpoint> endpoints = endpoints();

        assertThat(endpoints).hasSizeGreaterThan(15);
        for (Endpoint e : endpoints) {
            assertThat(document.getJsonObject("paths").getJsonObject(e.path())).as(e.toString()).isNotNull();
            JsonObject operation = e.operation(document);
            assertThat(operation).as(e.toString()).isNotNull();
            assertThat(operation.getJsonObject("responses")).as(e.toString()).isNotEmpty();
        }
    }

    @Test
    void whenOperationsThenTheirIdsAreUnique() {
        var ids = operations().map(o -> o.getString("operationId")).toList();

        assertThat(ids).doesNotHaveDuplicates().contains("ArticlesResource_list", "TagsResource_list");
    }

    @Test
    void whenAnyRefThenItResolves() {
        var refs = new ArrayList<String>();
        collectRefs(document, refs);

        assertThat(refs).isNotEmpty();
        for (String ref : refs) {
            assertThat(ref).startsWith("#/");
            assertThat(resolve(ref)).as(ref).isNotNull();
        }
    }

    @Test
    void whenAnyOperationThenItListsTheErrorResponsesWithTheEnvelope() {
        operations().forEach(operation -> {
            String id = operation.getString("operationId");
            var codes = new ArrayList<>(ALWAYS);
            if (operation.containsKey("security")) {
                codes.addAll(List.of("401", "403"));
            }
            boolean input = operation.containsKey("requestBody") || operation.getJsonArray("parameters") != null
                    && operation.getJsonArray("parameters").stream()
                    .anyMatch(p -> !p.asJsonObject().getString("in").equals("path"));
            if (input) {
                codes.addAll(List.of("415", "422"));
            }
            JsonObject responses = operation.getJsonObject("responses");
            for (String code : codes) {
                assertThat(responses.getJsonObject(code)).as(id + " " + code).isNotNull();
                JsonObject response = followed(responses.getJsonObject(code));
                assertThat(response.getString("description")).as(id + " " + code).isNotBlank();
                assertThat(response.getJsonObject("content").getJsonObject("application/json")
                        .getJsonObject("schema").getString("$ref")).as(id + " " + code).isEqualTo(ERROR_REF);
            }
        });
    }

    @Test
    void whenErrorSchemaThenItIsTheSharedEnvelope() {
        JsonObject error = resolve(ERROR_REF);
        JsonObject body = resolve(error.getJsonObject("properties").getJsonObject("error").getString("$ref"));
        JsonObject properties = body.getJsonObject("properties");

        assertThat(error.getJsonArray("required")).containsExactly(Json.createValue("error"));
        assertThat(properties.getJsonObject("code").getString("type")).isEqualTo("integer");
        assertThat(properties.getJsonObject("message").getString("type")).isEqualTo("string");
        var nullableString = Json.createArrayBuilder().add("string").add("null").build();
        assertThat(properties.getJsonObject("details")).containsEntry("type", nullableString);
        assertThat(properties.getJsonObject("doc_url")).containsEntry("type", nullableString);
        JsonObject written = parse(dev.atrium.platform.boundary.json.Json.write(ErrorResponse.of(40001, "m", null)));
        assertThat(properties.keySet()).isEqualTo(written.getJsonObject("error").keySet());
    }

    @Test
    void whenSchemasThenPropertyNamesAreTheSnakeCaseJsonNames() {
        JsonObject schemas = document.getJsonObject("components").getJsonObject("schemas");

        assertThat(schemas.getJsonObject("ListEnvelopeArticleView").getJsonObject("properties"))
                .containsKeys("items", "total", "page", "page_size", "_links");
        assertThat(schemas.getJsonObject("CursorEnvelopeArticleView").getJsonObject("properties"))
                .containsKeys("items", "limit", "next_cursor", "_links");
        assertThat(schemas.getJsonObject("ArticleView").getJsonObject("properties"))
                .containsKeys("author_id", "published_at", "created_at", "_links");
        schemas.forEach((name, schema) -> {
            JsonObject properties = schema.asJsonObject().getJsonObject("properties");
            if (properties != null) {
                assertThat(properties.keySet()).as(name).allMatch(p -> p.matches("_?[a-z][a-z0-9_]*"));
            }
        });
    }

    @Test
    void whenARecordHasASchemaThenItsPropertiesAreWhatJsonbWrites() {
        JsonObject schemas = document.getJsonObject("components").getJsonObject("schemas");
        int compared = 0;
        for (Class<?> type : WarResources.classes()) {
            if (!type.isRecord()) {
                continue;
            }
            Schema named = type.getAnnotation(Schema.class);
            String name = named != null && !named.name().isBlank() ? named.name() : type.getSimpleName();
            var matching = schemas.keySet().stream()
                    .filter(s -> s.equals(name) || type.getTypeParameters().length > 0 && s.startsWith(name))
                    .toList();
            for (String schema : matching) {
                JsonObject written = parse(dev.atrium.platform.boundary.json.Json.write(Samples.record(type)));
                assertThat(schemas.getJsonObject(schema).getJsonObject("properties").keySet()).as(schema)
                        .isEqualTo(written.keySet());
                compared++;
            }
        }
        assertThat(compared).isGreaterThan(10);
    }

    @Test
    void whenAMethodReturnsResponseThenItDeclaresItsResponses() {
        for (Endpoint e : endpoints()) {
            Type returned = e.method().getGenericReturnType();
            if (returned instanceof ParameterizedType p && p.getRawType() == CompletionStage.class) {
                returned = p.getActualTypeArguments()[0];
            }
            if (returned == Response.class) {
                assertThat(e.method().getAnnotationsByType(APIResponse.class))
                        .as(e + " returns Response: declare what it answers with @APIResponse").isNotEmpty();
            }
        }
    }

    @Test
    void whenAMethodTakesAnEntityOrFormThenTheOperationHasARequestBody() {
        int withBody = 0;
        for (Endpoint e : endpoints()) {
            boolean takesBody = Arrays.stream(e.method().getParameters()).anyMatch(p -> p.isAnnotationPresent(
                    FormParam.class) || Arrays.stream(p.getAnnotations())
                    .noneMatch(a -> a.annotationType().getPackageName().startsWith("jakarta.ws.rs")));
            if (takesBody) {
                JsonObject body = e.operation(document).getJsonObject("requestBody");
                assertThat(body).as(e.toString()).isNotNull();
                assertThat(body.getJsonObject("content")).as(e.toString()).isNotEmpty();
                withBody++;
            }
        }
        assertThat(withBody).isGreaterThan(5);
        JsonObject create = document.getJsonObject("paths").getJsonObject("/api/v1/articles").getJsonObject("post");
        assertThat(create.getJsonObject("requestBody").getBoolean("required")).isTrue();
        assertThat(create.getJsonObject("requestBody").getJsonObject("content").getJsonObject("application/json")
                .getJsonObject("schema").getString("$ref")).isEqualTo("#/components/schemas/ArticleCreateRequest");
    }

    @Test
    void whenAListEndpointThenItAnswersEitherEnvelopeAndTakesTheListParameters() {
        var lists = endpoints().stream().filter(e -> e.method().isAnnotationPresent(ListOf.class)).toList();

        assertThat(lists).extracting(e -> e.method().getDeclaringClass().getSimpleName() + "." + e.method().getName())
                .contains("ArticlesResource.list", "ArticlesResource.comments", "TagsResource.list");
        for (Endpoint e : lists) {
            String item = e.method().getAnnotation(ListOf.class).value().getSimpleName();
            JsonObject operation = e.operation(document);
            JsonArray oneOf = operation.getJsonObject("responses").getJsonObject("200").getJsonObject("content")
                    .getJsonObject("application/json").getJsonObject("schema").getJsonArray("oneOf");
            assertThat(oneOf).extracting(s -> s.asJsonObject().getString("$ref")).containsExactly(
                    "#/components/schemas/ListEnvelope" + item, "#/components/schemas/CursorEnvelope" + item);
            assertThat(operation.getJsonArray("parameters")).extracting(p -> p.asJsonObject().getString("name"))
                    .contains("page", "page_size", "cursor", "limit", "sort", "fields", "expand", "search",
                            "created_after", "created_before", "ids");
        }
    }

    @Test
    void whenAnyOperationThenItNeedsTheBearerSchemeExactlyWhenTheAccessControlAsksForACaller() {
        int open = 0;
        for (Endpoint e : endpoints()) {
            AnnotatedElement decides = Stream.of(PermitAll.class, RolesAllowed.class, DenyAll.class)
                    .anyMatch(e.method()::isAnnotationPresent) ? e.method() : e.resource();
            boolean anyone = decides.isAnnotationPresent(PermitAll.class);
            JsonObject operation = e.operation(document);
            if (anyone) {
                open++;
                assertThat(operation).as(e.toString()).doesNotContainKey("security");
            } else {
                assertThat(operation.getJsonArray("security")).as(e.toString()).containsExactly(
                        Json.createObjectBuilder().add("bearer", JsonValue.EMPTY_JSON_ARRAY).build());
                assertThat(operation.getJsonObject("responses")).as(e.toString()).containsKeys("401", "403");
            }
        }
        assertThat(open).isGreaterThan(5);
    }

    @Test
    void whenNotPermitAllThenTheOperationNeedsTheBearerScheme() {
        var paths = document.getJsonObject("paths");

        assertThat(paths.getJsonObject("/api/v1/articles").getJsonObject("post").getJsonArray("security"))
                .containsExactly(Json.createObjectBuilder().add("bearer", JsonValue.EMPTY_JSON_ARRAY).build());
        assertThat(paths.getJsonObject("/api/v1/articles").getJsonObject("get")).doesNotContainKey("security");
        assertThat(paths.getJsonObject("/api/v1/articles").getJsonObject("get").getJsonObject("responses"))
                .doesNotContainKeys("401", "403");
        assertThat(followed(paths.getJsonObject("/admin/batch-executions/{id}").getJsonObject("get")
                .getJsonObject("responses").getJsonObject("403")).getString("description")).contains("admin");
    }

    @Test
    void whenFilesAreDocumentedThenUploadIsMultipartWithItsLimitsAndDownloadIsBinary() {
        JsonObject paths = document.getJsonObject("paths");
        assertThat(paths.keySet()).contains("/api/files", "/api/files/upload", "/api/files/{id}",
                "/api/files/{id}/content", "/api/files/{id}/text");

        JsonObject upload = paths.getJsonObject("/api/files/upload").getJsonObject("post");
        assertThat(upload.getJsonObject("requestBody").getJsonObject("content")
                .getJsonObject("multipart/form-data").getJsonObject("schema").getString("$ref"))
                .isEqualTo("#/components/schemas/FileUploadForm");
        assertThat(upload.getJsonObject("responses").keySet()).contains("202", "401", "403", "413", "415", "422");
        assertThat(upload.getJsonObject("responses").getJsonObject("202").getJsonObject("content")
                .getJsonObject("application/json").getJsonObject("schema").getString("$ref"))
                .isEqualTo("#/components/schemas/FileAccepted");
        JsonObject download = paths.getJsonObject("/api/files/{id}/content").getJsonObject("get");
        assertThat(download.getJsonObject("responses").getJsonObject("200").getJsonObject("content")
                .getJsonObject("application/octet-stream").getJsonObject("schema"))
                .containsEntry("format", Json.createValue("binary"));
        assertThat(paths.getJsonObject("/api/files/{id}").getJsonObject("delete").getJsonObject("responses"))
                .containsKey("204");
        assertThat(paths.getJsonObject("/api/files/{id}/text").getJsonObject("get").getJsonObject("responses"))
                .containsKeys("200", "409");
        assertThat(document.getJsonObject("components").getJsonObject("schemas").getJsonObject("FileView")
                .getJsonObject("properties")).containsKeys("id", "filename", "file_type", "file_size",
                "storage_path", "status", "metadata", "created_at");
    }

    /** A response as written, or the shared one under components/responses it refers to. */
    private JsonObject followed(JsonObject response) {
        return response.containsKey("$ref") ? resolve(response.getString("$ref")) : response;
    }

    private JsonObject resolve(String ref) {
        JsonValue node = document;
        for (String token : ref.substring(2).split("/")) {
            if (!(node instanceof JsonObject object) || !object.containsKey(token)) {
                return null;
            }
            node = object.get(token);
        }
        return node.asJsonObject();
    }

    private static void collectRefs(JsonValue node, List<String> refs) {
        if (node instanceof JsonObject object) {
            object.forEach((k, v) -> {
                if (k.equals("$ref")) {
                    refs.add(((JsonString) v).getString());
                } else {
                    collectRefs(v, refs);
                }
            });
        } else if (node instanceof JsonArray array) {
            array.forEach(v -> collectRefs(v, refs));
        }
    }

    private static JsonObject parse(String json) {
        try (var reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }
}
